import Foundation
import SesameProtocol

extension OpenAPIPaths {
    // MARK: The registered APIs (RFC 8707 resources, issue #49; docs/resource-server.md)

    static var apiRegistryPaths: [String: OpenAPI.PathItem] {
        typealias Operation = OpenAPI.Operation
        let identifier = OpenAPI.Parameter(
            name: "identifier", in: "path", required: true,
            description: "The API's identifier, percent-encoded as one path segment (https%3A%2F%2Fshop-api.example.com).",
            schema: .string())
        let notFound: Responses = ["404": .error("not_found (1019): no API has that identifier.")]
        let refused: Responses = [
            "400": .error(
                "validation_failed (3000): the identifier, name or a scope is refused; error_details names it. invalid_request (1000): an API has the identifier, or the body is not a JSON object.")
        ]
        return [
            "/admin/api/apis": OpenAPI.PathItem(
                get: Operation(
                    "listAPIs", tag: "Admin", summary: "The registered APIs",
                    description: "The APIs clients name in resource (RFC 8707); their tokens carry the identifier in aud. Roles: admin, auditor.",
                    responses: merged(["200": .json("AdminAPIList", "By identifier.")], adminToken), security: bearer),
                post: Operation(
                    "addAPI", tag: "Admin", summary: "Register an API",
                    description: "Checked as sesame api add checks it: an https identifier without a fragment, scope tokens that are not OpenID Connect's. Roles: admin.",
                    requestBody: .json("AdminAPISpec"),
                    responses: merged(["201": .json("AdminAPI", "The registered API.")], refused, adminToken),
                    security: bearer)),
            "/admin/api/apis/{identifier}": OpenAPI.PathItem(
                post: Operation(
                    "updateAPI", tag: "Admin", summary: "Change an API's name or scopes",
                    description: "The members the body gives change; the others stay. Roles: admin.",
                    parameters: [identifier], requestBody: .json("AdminAPISpec"),
                    responses: merged(["200": .json("AdminAPI", "The API after the change.")], refused, notFound, adminToken),
                    security: bearer),
                delete: Operation(
                    "removeAPI", tag: "Admin", summary: "Remove an API",
                    description: "No token is issued for it any more; tokens issued already stay valid until they expire. Roles: admin.",
                    parameters: [identifier],
                    responses: merged(["204": .empty("Removed.")], notFound, adminToken), security: bearer)),
        ]
    }
}

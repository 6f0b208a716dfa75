import Foundation
import SesameProtocol

extension OpenAPIPaths {
    // MARK: Dynamic client registration (RFC 7591, RFC 7592), when the operator opened it

    static var registrationPaths: [String: OpenAPI.PathItem] {
        typealias Operation = OpenAPI.Operation
        let clientID = OpenAPI.Parameter(
            name: "client_id", in: "path", required: true, description: "The registered client's id.", schema: .string())
        let token: Responses = [
            "401": .error(
                "invalid_token (1011): the Bearer token (an initial access token at /register with --registration token, else the registration access token) is missing, unknown or not the current one.")
        ]
        let refused: Responses = [
            "400": .error(
                "invalid_client_metadata (1035): a member is not allowed here (grant, scope, method, response type, name). invalid_redirect_uri (1036): a redirect URI is not https or loopback http. invalid_request (1000): the body is not application/json.")
        ]
        let paths: [String: OpenAPI.PathItem] = [
            ClientRegistrationPolicy.path: OpenAPI.PathItem(
                post: Operation(
                    "registerClient", tag: "OAuth 2.0", summary: "Register a client (RFC 7591)",
                    description: "Public clients with PKCE (none), https or loopback redirect URIs, the operator's scopes. The answer's registration_access_token reads, replaces and deletes the registration (RFC 7592); client_secret only for a confidential client where allowed. A client that obtains no token within the operator's lifetime (24 hours by default) is removed.",
                    requestBody: .json("ClientRegistrationRequest"),
                    responses: merged(
                        ["201": .json("ClientRegistrationResponse", "The registered client.")], refused, token),
                    security: [[:], ["bearerAuth": []]])),
            ClientRegistrationPolicy.path + "/{client_id}": OpenAPI.PathItem(
                get: Operation(
                    "readClientRegistration", tag: "OAuth 2.0", summary: "Read a registration (RFC 7592 §2.1)",
                    description: "With the registration access token; the answer carries a new one, which replaces it.",
                    parameters: [clientID],
                    responses: merged(["200": .json("ClientRegistrationResponse", "The registration.")], token), security: bearer),
                put: Operation(
                    "updateClientRegistration", tag: "OAuth 2.0", summary: "Replace a registration's metadata (RFC 7592 §2.2)",
                    description: "The whole metadata; members left out take their defaults. The secret stays; a public client stays public.",
                    parameters: [clientID], requestBody: .json("ClientRegistrationRequest"),
                    responses: merged(["200": .json("ClientRegistrationResponse", "The registration after the change.")], refused, token),
                    security: bearer),
                delete: Operation(
                    "deleteClientRegistration", tag: "OAuth 2.0", summary: "Delete a registration (RFC 7592 §2.3)",
                    description: "The client, its codes and refresh tokens are removed.", parameters: [clientID],
                    responses: merged(["204": .empty("Deleted.")], token), security: bearer)),
        ]
        return paths.reduce(into: [:]) { result, entry in result[entry.key] = withRateLimits(entry.value, path: entry.key) }
    }
}

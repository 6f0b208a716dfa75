import Foundation
import Hummingbird
import SesameProtocol

/// The registered APIs in the admin API (issue #49, ``APIAdministration``):
/// - `GET /admin/api/apis`: every API;
/// - `POST /admin/api/apis`: register one (``AdminAPISpec`` with `identifier`);
/// - `POST /admin/api/apis/{identifier}`: change its name or scopes (the identifier percent-encoded);
/// - `DELETE /admin/api/apis/{identifier}`: remove it.
struct AdminAPIsEndpoint: Sendable {
    let authentication: AdminAuthentication
    let apis: APIAdministration

    func list(_ request: Request, context: SesameRequestContext) async throws -> Response {
        JSONResponse.make(try await authentication.perform(request, context: context) { try await apis.list(by: $0) })
    }

    func add(_ request: Request, context: SesameRequestContext) async throws -> Response {
        let actor = try await authentication.authenticate(request, context: context)
        let spec = try await Self.spec(request, context)
        var response = JSONResponse.make(
            try await authentication.perform(actor, context: context) {
                try await apis.add(spec, by: $0, origin: RequestOrigin(context))
            })
        response.status = .created
        return response
    }

    func update(_ request: Request, context: SesameRequestContext) async throws -> Response {
        let actor = try await authentication.authenticate(request, context: context)
        let identifier = try AdminRequest.parameter("identifier", context, maximumLength: 512)
        let spec = try await Self.spec(request, context)
        return JSONResponse.make(
            try await authentication.perform(actor, context: context) {
                try await apis.update(identifier: identifier, spec, by: $0, origin: RequestOrigin(context))
            })
    }

    func remove(_ request: Request, context: SesameRequestContext) async throws -> Response {
        let actor = try await authentication.authenticate(request, context: context)
        let identifier = try AdminRequest.parameter("identifier", context, maximumLength: 512)
        try await authentication.perform(actor, context: context) {
            try await apis.remove(identifier: identifier, by: $0, origin: RequestOrigin(context))
        }
        return JSONResponse.noContent()
    }

    private static func spec(_ request: Request, _ context: SesameRequestContext) async throws -> AdminAPISpec {
        try await AdminRequest.body(AdminAPISpec.self, request, context, what: "an API registration", members: "identifier, name and scopes")
    }
}

import Foundation
import Hummingbird
import SesameProtocol

/// The federation providers in the admin API (issue #47, ``ProviderAdministration``):
/// - `GET /admin/api/providers`: every provider, never a secret;
/// - `POST /admin/api/providers`: register one (``AdminFederationProviderSpec`` with `id` and `kind`);
/// - `POST /admin/api/providers/{provider_id}`: change the settings the body gives;
/// - `DELETE /admin/api/providers/{provider_id}`: remove it and unlink its identities.
struct AdminProvidersEndpoint: Sendable {
    let authentication: AdminAuthentication
    let providers: ProviderAdministration

    func list(_ request: Request, context: SesameRequestContext) async throws -> Response {
        JSONResponse.make(try await authentication.perform(request, context: context) { try await providers.list(by: $0) })
    }

    func add(_ request: Request, context: SesameRequestContext) async throws -> Response {
        let actor = try await authentication.authenticate(request, context: context)
        let spec = try await Self.spec(request, context)
        var response = JSONResponse.make(
            try await authentication.perform(actor, context: context) {
                try await providers.add(spec, by: $0, origin: RequestOrigin(context))
            })
        response.status = .created
        return response
    }

    func update(_ request: Request, context: SesameRequestContext) async throws -> Response {
        let actor = try await authentication.authenticate(request, context: context)
        let id = try Self.providerID(context)
        let spec = try await Self.spec(request, context)
        return JSONResponse.make(
            try await authentication.perform(actor, context: context) {
                try await providers.update(id: id, spec, by: $0, origin: RequestOrigin(context))
            })
    }

    func remove(_ request: Request, context: SesameRequestContext) async throws -> Response {
        let actor = try await authentication.authenticate(request, context: context)
        let id = try Self.providerID(context)
        try await authentication.perform(actor, context: context) {
            try await providers.remove(id: id, by: $0, origin: RequestOrigin(context))
        }
        return JSONResponse.noContent()
    }

    private static func spec(_ request: Request, _ context: SesameRequestContext) async throws -> AdminFederationProviderSpec {
        try await AdminRequest.body(
            AdminFederationProviderSpec.self, request, context, what: "a provider registration", members: "provider settings")
    }

    private static func providerID(_ context: SesameRequestContext) throws -> String {
        try AdminRequest.parameter("provider_id", context)
    }
}

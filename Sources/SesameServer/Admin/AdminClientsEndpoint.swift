import Foundation
import Hummingbird
import SesameProtocol

/// The clients and signing keys in the admin API (issue #47, ``ClientAdministration``,
/// ``SigningKeyAdministration``):
/// - `GET /admin/api/clients`, `GET /admin/api/clients/{client_id}`: every setting;
/// - `POST /admin/api/clients`: register one (its secret answered once);
/// - `POST /admin/api/clients/{client_id}`: change the settings the body names (``AdminClientUpdate``);
/// - `POST …/secret`: a new secret, shown once; `DELETE /admin/api/clients/{client_id}`;
/// - `GET /admin/api/keys`, `POST /admin/api/keys/rotate`, `POST /admin/api/keys/{kid}/retire`
///   (``AdminKeyRetirement``).
///
/// Deleting, rotating a secret, rotating and retiring keys need a sign-in of the last 5 minutes.
struct AdminClientsEndpoint: Sendable {
    let authentication: AdminAuthentication
    let clients: ClientAdministration
    let keys: SigningKeyAdministration

    func list(_ request: Request, context: SesameRequestContext) async throws -> Response {
        JSONResponse.make(try await authentication.perform(request, context: context) { try await clients.list(by: $0) })
    }

    func detail(_ request: Request, context: SesameRequestContext) async throws -> Response {
        let actor = try await authentication.authenticate(request, context: context)
        let id = try Self.clientID(context)
        return JSONResponse.make(try await authentication.perform(actor, context: context) { try await clients.detail(clientID: id, by: $0) })
    }

    /// `POST /admin/api/clients`: registers a client (`client_id`, `confidential`, settings).
    func create(_ request: Request, context: SesameRequestContext) async throws -> Response {
        let actor = try await authentication.authenticate(request, context: context)
        let settings = try await Self.settings(request, context)
        var response = JSONResponse.make(
            try await authentication.perform(actor, context: context) {
                try await clients.create(settings, by: $0, origin: RequestOrigin(context))
            })
        response.status = .created
        return response
    }

    func update(_ request: Request, context: SesameRequestContext) async throws -> Response {
        let actor = try await authentication.authenticate(request, context: context)
        let id = try Self.clientID(context)
        let update = try await Self.settings(request, context)
        let client = try await authentication.perform(actor, context: context) {
            try await clients.update(clientID: id, update, by: $0, origin: RequestOrigin(context))
        }
        return JSONResponse.make(client)
    }

    private static func settings(_ request: Request, _ context: SesameRequestContext) async throws -> AdminClientUpdate {
        try await AdminRequest.body(AdminClientUpdate.self, request, context, what: "a client update", members: "client settings")
    }

    func rotateSecret(_ request: Request, context: SesameRequestContext) async throws -> Response {
        let actor = try await authentication.authenticate(request, context: context)
        let id = try Self.clientID(context)
        return JSONResponse.make(
            try await authentication.perform(actor, context: context) {
                try await clients.rotateSecret(clientID: id, by: $0, origin: RequestOrigin(context))
            })
    }

    func delete(_ request: Request, context: SesameRequestContext) async throws -> Response {
        let actor = try await authentication.authenticate(request, context: context)
        let id = try Self.clientID(context)
        try await authentication.perform(actor, context: context) {
            try await clients.delete(clientID: id, by: $0, origin: RequestOrigin(context))
        }
        return JSONResponse.noContent()
    }

    func listKeys(_ request: Request, context: SesameRequestContext) async throws -> Response {
        JSONResponse.make(try await authentication.perform(request, context: context) { try await keys.list(by: $0) })
    }

    func rotateKeys(_ request: Request, context: SesameRequestContext) async throws -> Response {
        JSONResponse.make(
            try await authentication.perform(request, context: context) {
                try await keys.rotate(by: $0, origin: RequestOrigin(context))
            })
    }

    func retireKey(_ request: Request, context: SesameRequestContext) async throws -> Response {
        let actor = try await authentication.authenticate(request, context: context)
        let kid = try AdminRequest.parameter("kid", context)
        let retirement = try await AdminRequest.body(
            AdminKeyRetirement.self, request, context, what: "a key retirement", members: "immediately (a boolean)")
        return JSONResponse.make(
            try await authentication.perform(actor, context: context) {
                try await keys.retire(kid: kid, immediately: retirement.immediately ?? false, by: $0, origin: RequestOrigin(context))
            })
    }

    private static func clientID(_ context: SesameRequestContext) throws -> String {
        try AdminRequest.parameter("client_id", context)
    }
}

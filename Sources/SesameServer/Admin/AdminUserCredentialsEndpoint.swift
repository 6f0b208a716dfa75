import Foundation
import Hummingbird
import SesameProtocol

/// What a help desk removes from an account in the admin API (issue #47, ``UserAdministration``):
/// - `DELETE /admin/api/users/{user_id}/factors/{method}`: a second factor;
/// - `DELETE /admin/api/users/{user_id}/passkeys/{credential_id}`: a passkey;
/// - `DELETE /admin/api/users/{user_id}/pin-registrations/{registration_id}`: a PIN device, with
///   every token issued through it;
/// - `DELETE /admin/api/users/{user_id}`: the account (a sign-in of the last 5 minutes).
struct AdminUserCredentialsEndpoint: Sendable {
    let authentication: AdminAuthentication
    let users: UserAdministration

    func removeFactor(_ request: Request, context: SesameRequestContext) async throws -> Response {
        try await remove(request, context) { id, actor, origin in
            try await users.removeFactor(userID: id, method: try Self.parameter("method", context), by: actor, origin: origin)
        }
    }

    func removePasskey(_ request: Request, context: SesameRequestContext) async throws -> Response {
        try await remove(request, context) { id, actor, origin in
            try await users.removePasskey(
                userID: id, credentialID: try Self.parameter("credential_id", context), by: actor, origin: origin)
        }
    }

    func removePINRegistration(_ request: Request, context: SesameRequestContext) async throws -> Response {
        try await remove(request, context) { id, actor, origin in
            try await users.removePINRegistration(
                userID: id, registrationID: try Self.parameter("registration_id", context), by: actor, origin: origin)
        }
    }

    func deleteUser(_ request: Request, context: SesameRequestContext) async throws -> Response {
        try await remove(request, context) { id, actor, origin in try await users.delete(userID: id, by: actor, origin: origin) }
    }

    private func remove(
        _ request: Request, _ context: SesameRequestContext, _ body: (String, AdminActor, RequestOrigin) async throws -> Void
    ) async throws -> Response {
        let actor = try await authentication.authenticate(request, context: context)
        let id = try Self.parameter("user_id", context)
        try await authentication.perform(actor, context: context) { actor in try await body(id, actor, RequestOrigin(context)) }
        return JSONResponse.noContent()
    }

    private static func parameter(_ name: String, _ context: SesameRequestContext) throws -> String {
        try AdminRequest.parameter(name, context, maximumLength: 512)
    }
}

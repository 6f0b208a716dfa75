import Foundation
import Hummingbird
import SesameProtocol

/// Accounts an operator makes and edits in the admin API (issue #47, ``UserProvisioning``):
/// - `POST /admin/api/users`: create (``AdminUserProfile``; without a password, an invitation mail);
/// - `POST /admin/api/users/{user_id}`: change the profile fields given;
/// - `POST /admin/api/users/{user_id}/password-reset`, `…/verify-email`: send that mail.
struct AdminUserProvisioningEndpoint: Sendable {
    let authentication: AdminAuthentication
    let provisioning: UserProvisioning

    func create(_ request: Request, context: SesameRequestContext) async throws -> Response {
        let actor = try await authentication.authenticate(request, context: context)
        let profile = try await Self.profile(request, context)
        var response = JSONResponse.make(
            try await authentication.perform(actor, context: context) {
                try await provisioning.create(profile, by: $0, origin: RequestOrigin(context))
            })
        response.status = .created
        return response
    }

    func update(_ request: Request, context: SesameRequestContext) async throws -> Response {
        let actor = try await authentication.authenticate(request, context: context)
        let id = try Self.userID(context)
        let profile = try await Self.profile(request, context)
        return JSONResponse.make(
            try await authentication.perform(actor, context: context) {
                try await provisioning.update(userID: id, profile, by: $0, origin: RequestOrigin(context))
            })
    }

    func passwordReset(_ request: Request, context: SesameRequestContext) async throws -> Response {
        try await mail(.passwordReset, request, context)
    }

    func verifyEmail(_ request: Request, context: SesameRequestContext) async throws -> Response {
        try await mail(.emailVerification, request, context)
    }

    private func mail(_ purpose: VerificationPurpose, _ request: Request, _ context: SesameRequestContext) async throws -> Response {
        let actor = try await authentication.authenticate(request, context: context)
        let id = try Self.userID(context)
        try await authentication.perform(actor, context: context) {
            try await provisioning.sendMail(purpose, userID: id, by: $0, origin: RequestOrigin(context))
        }
        return JSONResponse.noContent()
    }

    private static func profile(_ request: Request, _ context: SesameRequestContext) async throws -> AdminUserProfile {
        try await AdminRequest.body(AdminUserProfile.self, request, context, what: "a user profile", members: "profile fields")
    }

    private static func userID(_ context: SesameRequestContext) throws -> String {
        try AdminRequest.parameter("user_id", context)
    }
}

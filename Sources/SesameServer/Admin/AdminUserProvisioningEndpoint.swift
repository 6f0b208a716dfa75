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
        do {
            return try JSONDecoder().decode(AdminUserProfile.self, from: try await JSONRequest.body(of: request, context: context))
        } catch let failure as EndpointFailure {
            throw failure
        } catch let error as DecodingError {
            let field = JSONRequest.violation(error).field
            throw EndpointFailure(.invalidRequest, "The body is not a user profile: \(field) has the wrong type or format.")
        } catch {
            throw EndpointFailure(.invalidRequest, "The body is not a JSON object of profile fields.")
        }
    }

    private static func userID(_ context: SesameRequestContext) throws -> String {
        let raw = context.parameters.get("user_id") ?? ""
        let value = raw.removingPercentEncoding ?? raw
        guard !value.isEmpty, value.count <= 256 else { throw EndpointFailure(.invalidRequest, "user_id is 1 to 256 characters.") }
        return value
    }
}

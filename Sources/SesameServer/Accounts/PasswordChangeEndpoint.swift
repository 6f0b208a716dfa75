import Foundation
import Hummingbird
import SesameProtocol

/// `POST /api/password` (bearer access token) ``PasswordChangeRequest`` → 200 `{}`
/// (docs/first-party-and-accounts.md: the current password is required). A wrong current password is
/// `invalid_credentials` (2000); too many wrong ones are throttled with the sign-in limits of the
/// username (``LoginThrottle``, 429 `too_many_attempts`, 2009). The user's other refresh tokens
/// and browser sessions are revoked; the token family and session the request came from stay
/// signed in.
struct PasswordChangeEndpoint: Sendable {
    let provider: Provider
    let bearer: BearerAuthentication

    func post(_ request: Request, context: SesameRequestContext) async throws -> Response {
        let (claims, user) = try await bearer
            .authenticateFirstParty(request, context: context)
        let validation = AccountValidation(request: request, localizer: provider.localizer, user: user)
        let input = try await JSONRequest.decode(
            PasswordChangeRequest.self, from: request, context: context,
            required: ["current_password", "new_password"], validation: validation
        ).value
        try await provider.credentials.confirmCurrentPassword(input.currentPassword, field: "current_password", of: user, context: context)
        let violations = validation.password(
            input.newPassword, field: "new_password", email: user.email, username: user.username)
        if !violations.isEmpty { throw validation.failure(violations) }

        var updated = user
        let now = provider.now()
        updated.passwordHash = try await provider.credentials.hashPassword(input.newPassword)
        updated.updatedAt = now
        try await provider.store.updateUser(updated)
        try await provider.store.revokeAllTokens(
            userID: user.id, now: now, keepingFamily: claims.fid, keepingSession: claims.sid,
            reason: .credentialsChanged)
        context.annotations.record(outcome: "password_changed")
        provider.audit.record(.passwordChanged, context: context, clientID: claims.clientID, userID: user.id)
        return JSONResponse.make([String: String]())
    }
}

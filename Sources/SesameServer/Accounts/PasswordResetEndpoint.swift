import Foundation
import Hummingbird
import SesameProtocol

/// Password reset by emailed code (SPEC §1.8; issue #5 contract):
/// - `POST /api/password/reset` ``PasswordResetRequest`` → 202 `{}` whether or not the address
///   has an account (no account enumeration); a `password_reset` code goes to known addresses.
/// - `POST /api/password/reset/confirm` ``PasswordResetConfirmation`` → 200 `{}`: sets the
///   password, revokes the user's refresh tokens and browser sessions, and marks the email
///   verified (the code proved control of the address).
struct PasswordResetEndpoint: Sendable {
    let services: ServerServices

    func request(_ request: Request, context: SesameRequestContext) async throws -> Response {
        let validation = AccountValidation(request: request, services: services)
        let input = try await JSONRequest.decode(
            PasswordResetRequest.self, from: request, context: context, required: ["email"],
            validation: validation
        ).value
        let email = input.email.trimmingCharacters(in: .whitespaces).lowercased()
        if let user = try await user(email: email) {
            do {
                try await VerificationCodes(services: services).issue(
                    .passwordReset, for: user, to: user.email,
                    locales: AccountValidation.locales(request: request, preferred: user.claims.locale))
            } catch let failure as EndpointFailure where failure.code == .temporarilyUnavailable {
                // Already logged; answering differently would reveal that the account exists.
            }
        }
        context.annotations.record(outcome: "password_reset_requested")
        return JSONResponse.make([String: String](), status: .accepted)
    }

    func confirm(_ request: Request, context: SesameRequestContext) async throws -> Response {
        let validation = AccountValidation(request: request, services: services)
        let input = try await JSONRequest.decode(
            PasswordResetConfirmation.self, from: request, context: context,
            required: ["email", "code", "new_password"], validation: validation
        ).value
        let email = input.email.trimmingCharacters(in: .whitespaces).lowercased()
        let found = try await user(email: email)
        // The policy is checked before the code, so a rejected password does not use the code up.
        let violations = validation.password(
            input.newPassword, field: "new_password", email: email, username: found?.username)
        if !violations.isEmpty { throw validation.failure(violations) }

        let record = try await VerificationCodes(services: services)
            .redeem(.passwordReset, userID: found?.id, code: input.code, validation: validation)
        guard var user = found, record.target == user.email else {
            throw EndpointFailure(
                .invalidVerificationCode, "The code was sent to another address; request a new code.")
        }
        let now = services.now()
        user.passwordHash = try await services.credentials.hashPassword(input.newPassword)
        user.emailVerified = true
        user.updatedAt = now
        try await services.store.updateUser(user)
        try await services.accountStore.revokeAllTokens(userID: user.id, now: now)
        context.annotations.record(outcome: "password_reset")
        return JSONResponse.make([String: String]())
    }

    /// The user whose email (not username) is `email`.
    private func user(email: String) async throws -> UserRecord? {
        guard !email.isEmpty else { return nil }
        return try await services.store.user(login: email).flatMap { $0.email == email ? $0 : nil }
    }
}

import Foundation
import Hummingbird
import SesameProtocol

/// Password reset by emailed code (docs/first-party-and-accounts.md):
/// - `POST /api/password/reset` ``PasswordResetRequest`` → 202 `{}` whether or not the address
///   has an account (no account enumeration); a `password_reset` code goes to known addresses.
/// - `POST /api/password/reset/confirm` ``PasswordResetConfirmation`` → 200 `{}`: sets the
///   password, revokes the user's refresh tokens and browser sessions, and marks the email
///   verified (the code proved control of the address).
struct PasswordResetEndpoint: Sendable {
    let provider: Provider
    /// Proof-of-work challenges for requests that look automated; `nil`: none.
    let challenges: ChallengeGate?

    func request(_ request: Request, context: SesameRequestContext) async throws -> Response {
        let validation = AccountValidation(request: request, localizer: provider.localizer)
        let input = try await JSONRequest.decode(
            PasswordResetRequest.self, from: request, context: context, required: ["email"],
            validation: validation
        ).value
        // A malformed address is refused (it reveals nothing about accounts); a well-formed one
        // gets 202 whether or not it has an account.
        if let violation = validation.email(EmailAddress.canonical(input.email), field: "email") {
            throw validation.failure([violation])
        }
        try await challenges?.require(
            .passwordReset, subject: input.email, clientID: nil, request: request, context: context)
        try await provider.accounts.admitMailRequest(from: ClientAddressKey.of(context.clientAddress))
        try await provider.accounts.requestPasswordReset(
            input.email, locales: AccountValidation.locales(request: request, preferred: nil))
        context.annotations.record(outcome: "password_reset_requested")
        provider.audit.record(.passwordResetRequested, context: context)
        return JSONResponse.make([String: String](), status: .accepted)
    }

    func confirm(_ request: Request, context: SesameRequestContext) async throws -> Response {
        let validation = AccountValidation(request: request, localizer: provider.localizer)
        let input = try await JSONRequest.decode(
            PasswordResetConfirmation.self, from: request, context: context,
            required: ["email", "code", "new_password"], validation: validation
        ).value
        let user = try await provider.accounts.resetPassword(
            input.email, code: input.code, newPassword: input.newPassword, validation: validation)
        context.annotations.record(outcome: "password_reset")
        provider.audit.record(.passwordReset, context: context, userID: user.id)
        return JSONResponse.make([String: String]())
    }
}

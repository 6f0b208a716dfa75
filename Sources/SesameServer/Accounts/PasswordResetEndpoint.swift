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
    let services: AccountServices

    func request(_ request: Request, context: SesameRequestContext) async throws -> Response {
        let validation = AccountValidation(request: request, services: services)
        let input = try await JSONRequest.decode(
            PasswordResetRequest.self, from: request, context: context, required: ["email"],
            validation: validation
        ).value
        // A malformed address is refused (it reveals nothing about accounts); a well-formed one
        // gets 202 whether or not it has an account.
        if let violation = validation.email(EmailAddress.canonical(input.email), field: "email") {
            throw validation.failure([violation])
        }
        try await services.challenges?.require(
            .passwordReset, subject: input.email, clientID: nil, request: request, context: context)
        try await AccountSelfService(services: services).admitMailRequest(context)
        try await AccountSelfService(services: services).requestPasswordReset(
            input.email, locales: AccountValidation.locales(request: request, preferred: nil))
        context.annotations.record(outcome: "password_reset_requested")
        services.audit.record(.passwordResetRequested, context: context)
        return JSONResponse.make([String: String](), status: .accepted)
    }

    func confirm(_ request: Request, context: SesameRequestContext) async throws -> Response {
        let validation = AccountValidation(request: request, services: services)
        let input = try await JSONRequest.decode(
            PasswordResetConfirmation.self, from: request, context: context,
            required: ["email", "code", "new_password"], validation: validation
        ).value
        let user = try await AccountSelfService(services: services).resetPassword(
            input.email, code: input.code, newPassword: input.newPassword, validation: validation)
        context.annotations.record(outcome: "password_reset")
        services.audit.record(.passwordReset, context: context, userID: user.id)
        return JSONResponse.make([String: String]())
    }
}

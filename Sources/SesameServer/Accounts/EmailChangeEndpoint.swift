import Foundation
import Hummingbird
import SesameProtocol

/// Changing the email address, verified (docs/first-party-and-accounts.md), bearer access token:
/// - `POST /api/email` ``EmailChangeRequest`` → 202 `{}`; an `email_change` code goes to the
///   NEW address (409 `email_taken` if another account uses it). Asking for the current
///   address sends a code that verifies it.
/// - `POST /api/email/confirm` ``EmailChangeConfirmation`` → 200 ``EmailVerificationStatus``:
///   the address switches and is verified. A username that was the old address follows it, so
///   the old address no longer signs in.
struct EmailChangeEndpoint: Sendable {
    let provider: Provider
    let bearer: BearerAuthentication

    func request(_ request: Request, context: SesameRequestContext) async throws -> Response {
        let (_, user) = try await bearer
            .authenticateFirstParty(request, context: context)
        let validation = AccountValidation(request: request, localizer: provider.localizer, user: user)
        let input = try await JSONRequest.decode(
            EmailChangeRequest.self, from: request, context: context, required: ["new_email"],
            validation: validation
        ).value
        let email = EmailAddress.canonical(input.newEmail)
        if let violation = validation.email(email, field: "new_email") { throw validation.failure([violation]) }
        try await provider.accounts.admitMailRequest(from: ClientAddressKey.of(context.clientAddress))
        try await checkAvailable(email, for: user, validation: validation)
        try await provider.verificationCodes
            .issue(.emailChange, for: user, to: email, locales: validation.locales)
        context.annotations.record(outcome: "email_change_requested")
        return JSONResponse.make([String: String](), status: .accepted)
    }

    func confirm(_ request: Request, context: SesameRequestContext) async throws -> Response {
        let (_, user) = try await bearer
            .authenticateFirstParty(request, context: context)
        let validation = AccountValidation(request: request, localizer: provider.localizer, user: user)
        let input = try await JSONRequest.decode(
            EmailChangeConfirmation.self, from: request, context: context, required: ["code"],
            validation: validation
        ).value
        let record = try await provider.verificationCodes
            .redeem(.emailChange, userID: user.id, code: input.code, validation: validation)
        let email = record.target
        // Another account may have taken the address since the code was sent.
        try await checkAvailable(email, for: user, validation: validation)
        var updated = user
        if updated.username == user.email { updated.username = email }
        updated.email = email
        updated.emailVerified = true
        updated.updatedAt = provider.now()
        updated.claims.updatedAt = Int(updated.updatedAt.timeIntervalSince1970)
        do {
            try await provider.store.updateUser(updated)
        } catch StoreError.conflict {
            throw validation.emailTaken(field: "new_email")
        }
        context.annotations.record(outcome: "email_changed")
        return JSONResponse.make(EmailVerificationStatus(email: email, emailVerified: true))
    }

    /// 409 when the address is another account's email or username.
    private func checkAvailable(_ email: String, for user: UserRecord, validation: AccountValidation) async throws {
        if let owner = try await provider.store.user(login: email), owner.id != user.id {
            throw validation.emailTaken(field: "new_email")
        }
    }
}

import Foundation
import Hummingbird
import SesameProtocol

/// Self-service sign-up (docs/first-party-and-accounts.md):
/// - `POST /api/signup` ``SignUpRequest`` → 201 ``SignUpResponse``; an `email_verification`
///   code goes to the address. The account starts with `email_verified: false` and can sign in
///   at once (verification is not a sign-in precondition).
/// - `POST /api/signup/confirm` ``EmailVerificationRequest`` → 200 ``EmailVerificationStatus``.
struct SignUpEndpoint: Sendable {
    let provider: Provider
    /// Proof-of-work challenges for requests that look automated; `nil`: none.
    let challenges: ChallengeGate?

    func signUp(_ request: Request, context: SesameRequestContext) async throws -> Response {
        var validation = AccountValidation(request: request, localizer: provider.localizer)
        let body = try await JSONRequest.decode(
            SignUpRequest.self, from: request, context: context,
            required: ["client_id", "email", "password"], validation: validation)
        let input = body.value
        validation = AccountValidation(
            localizer: provider.localizer,
            locales: AccountValidation.locales(request: request, preferred: input.profile.locale))
        guard try await provider.store.client(id: input.clientID) != nil else {
            throw EndpointFailure(.unknownClient, "client_id is not registered with this server.")
        }
        context.annotations.record(clientID: input.clientID)
        try await challenges?.require(
            .signUp, subject: input.email, clientID: input.clientID, request: request, context: context)
        try await provider.accounts.admitMailRequest(from: ClientAddressKey.of(context.clientAddress))

        let user = try await provider.accounts.signUp(
            .init(
                email: input.email, password: input.password, username: input.username, profile: input.profile,
                members: body.members),
            validation: validation)
        context.annotations.record(outcome: "signed_up")
        provider.audit.record(.accountCreated, context: context, clientID: input.clientID, userID: user.id)
        return JSONResponse.make(
            SignUpResponse(sub: user.id, email: user.email, emailVerified: false), status: .created)
    }

    func confirm(_ request: Request, context: SesameRequestContext) async throws -> Response {
        let validation = AccountValidation(request: request, localizer: provider.localizer)
        let input = try await JSONRequest.decode(
            EmailVerificationRequest.self, from: request, context: context, required: ["email", "code"],
            validation: validation
        ).value
        let user = try await provider.accounts
            .confirmEmail(input.email, code: input.code, validation: validation)
        context.annotations.record(outcome: "email_verified")
        return JSONResponse.make(EmailVerificationStatus(email: user.email, emailVerified: true))
    }
}

import Foundation
import Hummingbird
import SesameProtocol

/// `DELETE /api/account` (bearer access token) ``AccountDeletionRequest`` → 204 (docs/first-party-and-accounts.md;
/// docs/first-party-and-accounts.md). The password confirms it (wrong → `invalid_credentials`, 2000; throttled
/// like sign-in → 429 `too_many_attempts`, 2009). Removes the user with their refresh tokens
/// (families revoked, so access tokens stop working), browser sessions, authorization codes,
/// devices, pending codes and MFA data. Messages already in the outbox stay there.
struct AccountDeletionEndpoint: Sendable {
    let provider: Provider
    let bearer: BearerAuthentication

    func delete(_ request: Request, context: SesameRequestContext) async throws -> Response {
        let (claims, user) = try await bearer
            .authenticateFirstParty(request, context: context)
        let validation = AccountValidation(request: request, localizer: provider.localizer, user: user)
        let input = try await JSONRequest.decode(
            AccountDeletionRequest.self, from: request, context: context, required: ["password"],
            validation: validation
        ).value
        try await provider.credentials.confirmCurrentPassword(input.password, field: "password", of: user, context: context)
        try await provider.store.removeMFAData(userID: user.id)
        try await provider.store.removeDevices(userID: user.id)
        try await provider.store.removeVerificationCodes(userID: user.id)
        try await provider.store.revokeAllTokens(userID: user.id, now: provider.now(), reason: .signedOut)
        try await provider.store.removeUser(id: user.id)
        context.annotations.record(outcome: "account_deleted")
        provider.audit.record(.accountDeleted, context: context, clientID: claims.clientID, userID: user.id)
        return JSONResponse.noContent()
    }
}

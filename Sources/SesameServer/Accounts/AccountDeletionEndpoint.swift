import Foundation
import Hummingbird
import SesameProtocol

/// `DELETE /api/account` (bearer access token) ``AccountDeletionRequest`` → 204 (docs/first-party-and-accounts.md;
/// docs/first-party-and-accounts.md). The password confirms it (wrong → `invalid_credentials`, 2000; throttled
/// like sign-in → 429 `too_many_attempts`, 2009). Removes the user with their refresh tokens
/// (families revoked, so access tokens stop working), browser sessions, authorization codes,
/// devices, pending codes and MFA data. Messages already in the outbox stay there.
struct AccountDeletionEndpoint: Sendable {
    let services: AccountServices

    func delete(_ request: Request, context: SesameRequestContext) async throws -> Response {
        let (claims, user) = try await services.bearerAuthentication
            .authenticateFirstParty(request, context: context)
        let validation = AccountValidation(request: request, services: services, user: user)
        let input = try await JSONRequest.decode(
            AccountDeletionRequest.self, from: request, context: context, required: ["password"],
            validation: validation
        ).value
        try await services.credentials.confirmCurrentPassword(input.password, field: "password", of: user, context: context)
        try await services.mfaStore.removeMFAData(userID: user.id)
        try await services.accountStore.removeDevices(userID: user.id)
        try await services.accountStore.removeVerificationCodes(userID: user.id)
        try await services.accountStore.revokeAllTokens(userID: user.id, now: services.now(), reason: .signedOut)
        try await services.store.removeUser(id: user.id)
        context.annotations.record(outcome: "account_deleted")
        services.audit.record(.accountDeleted, context: context, clientID: claims.clientID, userID: user.id)
        return AccountResponses.noContent()
    }
}

/// Bodiless answers of the account APIs.
enum AccountResponses {
    /// 204 with `Cache-Control: no-store`.
    static func noContent() -> Response {
        Response(status: .noContent, headers: [.cacheControl: "no-store"])
    }
}

import Foundation
import Hummingbird
import SesameProtocol

/// The user's profile: the OpenID standard claims (OIDC Core §5.1; docs/first-party-and-accounts.md), bearer access
/// token.
/// - `GET /api/profile` → every ``StandardClaims`` member the user has (like `/userinfo` with
///   all scopes).
/// - `PATCH /api/profile` ``ProfileUpdate`` → the updated claims. Absent or `null` members stay,
///   `""` clears; `sub`, `email`, `email_verified`, `phone_number_verified` and `updated_at`
///   are read-only (400 with `not_writable` details; the email changes through `/api/email`).
///   Formats and lengths are checked (``ProfileValidation``); `updated_at` becomes now.
struct ProfileEndpoint: Sendable {
    let provider: Provider
    let bearer: BearerAuthentication

    /// Every claim group (OIDC Core §5.4).
    static let allScopes: Set<String> = ["openid", "profile", "email", "phone", "address"]

    func get(_ request: Request, context: SesameRequestContext) async throws -> Response {
        let (_, user) = try await bearer
            .authenticateFirstParty(request, context: context)
        context.annotations.record(outcome: "profile")
        return JSONResponse.make(ClaimRelease.claims(of: user, scopes: Self.allScopes))
    }

    func patch(_ request: Request, context: SesameRequestContext) async throws -> Response {
        let (_, user) = try await bearer
            .authenticateFirstParty(request, context: context)
        let validation = AccountValidation(request: request, localizer: provider.localizer, user: user)
        let body = try await JSONRequest.decode(
            ProfileUpdate.self, from: request, context: context, validation: validation)
        let violations =
            AccountValidation.readOnlyMembers(in: body.members)
            + ProfileValidation.violations(of: body.value)
        if !violations.isEmpty { throw validation.failure(violations) }

        var updated = user
        let now = provider.now()
        updated.claims = ProfileValidation.apply(body.value, to: user.claims)
        updated.claims.updatedAt = Int(now.timeIntervalSince1970)
        updated.updatedAt = now
        try await provider.store.updateUser(updated)
        context.annotations.record(outcome: "profile_updated")
        return JSONResponse.make(ClaimRelease.claims(of: updated, scopes: Self.allScopes))
    }
}

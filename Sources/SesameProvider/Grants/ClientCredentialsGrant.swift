import Foundation
import SesameProtocol
import SesameStore

/// RFC 6749 §4.4 client credentials, for confidential clients only. The access token's `sub`
/// is the client id (RFC 9068 §2.2); no refresh token (§4.4.3) and no ID token. OpenID scopes
/// (`openid`, `offline_access`) make no sense without a user and are refused.
///
/// With `resource` (RFC 8707 §2; without it, the client's default API) the token is for those
/// of the client's APIs, and carries only scopes they define; without a `scope` it gets every
/// scope of theirs. Without an API it is the issuer's, with the client's registered scopes.
package struct ClientCredentialsGrant: Sendable {
    package let tokenIssuer: TokenIssuer
    package let store: any IdentityStore

    package init(tokenIssuer: TokenIssuer, store: any IdentityStore) {
        self.tokenIssuer = tokenIssuer
        self.store = store
    }
    package static let userOnlyScopes: Set<String> = ["openid", "offline_access", "profile", "email", "phone", "address"]

    package func exchange(_ request: ClientCredentialsRequest, client: ClientRecord, confirmation: TokenConfirmation? = nil) async throws
        -> TokenResponse
    {
        guard client.isConfidential else {
            throw ProviderFailure(.unauthorizedClient, "client_credentials needs a confidential client.")
        }
        let audience = try await ResourceAuthorization(store: store).audience(
            requested: request.resources, authorized: nil, client: client)
        var allowed = client.allowedScopes.filter { !Self.userOnlyScopes.contains($0) }
        if !audience.apis.isEmpty {
            // A client registered for an API may have every scope it defines, and only those.
            allowed = []
            for scope in audience.apis.flatMap(\.scopes) where !allowed.contains(scope) { allowed.append(scope) }
        }
        var scopes = allowed
        if let requested = request.scope {
            scopes = ScopeList.parse(requested)
            if let bad = scopes.first(where: { !allowed.contains($0) }) {
                throw ProviderFailure(
                    .invalidScope,
                    audience.apis.isEmpty
                        ? "Scope '\(bad.prefix(100))' is not available with client_credentials."
                        : "Scope '\(bad.prefix(100))' is not defined by the API the token is for (sesame api add --scope).")
            }
        }
        let scope = ScopeList.format(scopes)
        let access = try await tokenIssuer.accessToken(
            client: client, subject: client.clientID, scope: scope, authentication: nil,
            sessionID: nil, familyID: nil, confirmation: confirmation,
            audience: audience.apis.isEmpty ? nil : audience.identifiers)
        return TokenResponse(
            accessToken: access.token, tokenType: TokenIssuer.tokenType(confirmation), expiresIn: client.accessTokenLifetime,
            scope: scope.isEmpty ? nil : scope)
    }
}

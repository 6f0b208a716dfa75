import Foundation
import SesameProtocol
import SesameStore

/// RFC 6749 §4.4 client credentials, for confidential clients only. The access token's `sub`
/// is the client id (RFC 9068 §2.2); no refresh token (§4.4.3) and no ID token. OpenID scopes
/// (`openid`, `offline_access`) make no sense without a user and are refused.
package struct ClientCredentialsGrant: Sendable {
    package let tokenIssuer: TokenIssuer

    package init(tokenIssuer: TokenIssuer) {
        self.tokenIssuer = tokenIssuer
    }
    package static let userOnlyScopes: Set<String> = ["openid", "offline_access", "profile", "email", "phone", "address"]

    package func exchange(_ request: ClientCredentialsRequest, client: ClientRecord, confirmation: TokenConfirmation? = nil) async throws
        -> TokenResponse
    {
        guard client.isConfidential else {
            throw ProviderFailure(.unauthorizedClient, "client_credentials needs a confidential client.")
        }
        let allowed = client.allowedScopes.filter { !Self.userOnlyScopes.contains($0) }
        var scopes = allowed
        if let requested = request.scope {
            scopes = ScopeList.parse(requested)
            if let bad = scopes.first(where: { !allowed.contains($0) }) {
                throw ProviderFailure(.invalidScope, "Scope '\(bad)' is not available with client_credentials.")
            }
        }
        let scope = ScopeList.format(scopes)
        let access = try await tokenIssuer.accessToken(
            client: client, subject: client.clientID, scope: scope, authentication: nil,
            sessionID: nil, familyID: nil, confirmation: confirmation)
        return TokenResponse(
            accessToken: access.token, tokenType: TokenIssuer.tokenType(confirmation), expiresIn: client.accessTokenLifetime,
            scope: scope.isEmpty ? nil : scope)
    }
}

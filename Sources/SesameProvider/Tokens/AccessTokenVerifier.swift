import Foundation
import SesameProtocol
import SesameStore

/// Decides whether a presented access token is active (RFC 6750 §3.1, RFC 7662 §2.2):
/// signature by a published key, `typ: at+jwt` (RFC 9068 §4), our issuer, not
/// expired, not revoked by `jti` (RFC 7009) and its refresh family not revoked. The issuer's own
/// APIs also need the issuer among its audiences: a token for registered APIs alone is theirs
/// (RFC 8707, ``TokenAudience``).
package struct AccessTokenVerifier: Sendable {
    package let issuer: String
    package let keyRing: KeyRing
    package let store: any IdentityStore
    package let now: @Sendable () -> Date

    package init(
        issuer: String,
        keyRing: KeyRing,
        store: any IdentityStore,
        now: @escaping @Sendable () -> Date
    ) {
        self.issuer = issuer
        self.keyRing = keyRing
        self.store = store
        self.now = now
    }

    /// The claims of an active token for the issuer's own APIs (`/userinfo`, the account and
    /// admin APIs), `nil` otherwise.
    package func activeClaims(_ token: String) async throws -> AccessTokenClaims? {
        guard let claims = try await issuedClaims(token), claims.aud.value.contains(issuer) else { return nil }
        return claims
    }

    /// The claims of an active token this server issued, whichever APIs it is for (RFC 7662
    /// introspection), `nil` otherwise.
    package func issuedClaims(_ token: String) async throws -> AccessTokenClaims? {
        guard let claims = await signedClaims(token) else { return nil }
        guard claims.exp > Int(now().timeIntervalSince1970) else { return nil }
        if try await store.isAccessTokenWithdrawn(jti: claims.jti, familyID: claims.fid) { return nil }
        return claims
    }

    /// The claims of a token this server signed as an access token (`typ: at+jwt`, RFC 9068
    /// §4), expired or not, for any audience.
    package func signedClaims(_ token: String) async -> AccessTokenClaims? {
        guard token.utf8.count < 8192 else { return nil }
        guard let claims = try? await keyRing.verify(token, as: AccessTokenClaims.self, headerType: "at+jwt") else {
            return nil
        }
        guard claims.iss == issuer else { return nil }
        return claims
    }
}

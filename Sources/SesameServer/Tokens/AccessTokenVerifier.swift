import Foundation
import SesameProtocol

/// Decides whether a presented access token is active (RFC 6750 §3.1, RFC 7662 §2.2):
/// signature by a published key, `typ: at+jwt` (RFC 9068 §4), our issuer and audience, not
/// expired, not revoked by `jti` (RFC 7009) and its refresh family not revoked.
struct AccessTokenVerifier: Sendable {
    let issuer: String
    let keyRing: KeyRing
    let store: any IdentityStore
    let now: @Sendable () -> Date

    /// The claims of an active token, `nil` otherwise.
    func activeClaims(_ token: String) async throws -> AccessTokenClaims? {
        guard let claims = await signedClaims(token) else { return nil }
        guard claims.exp > Int(now().timeIntervalSince1970) else { return nil }
        if try await store.isAccessTokenRevoked(jti: claims.jti) { return nil }
        if let family = claims.fid, try await store.isRefreshFamilyRevoked(family) { return nil }
        return claims
    }

    /// The claims of a token this server signed as an access token, expired or not.
    func signedClaims(_ token: String) async -> AccessTokenClaims? {
        guard token.utf8.count < 8192, Self.headerType(of: token) == "at+jwt" else { return nil }
        guard let claims = try? await keyRing.verify(token, as: AccessTokenClaims.self) else { return nil }
        guard claims.iss == issuer, claims.aud == issuer else { return nil }
        return claims
    }

    /// The JOSE header `typ` (compared case-insensitively, RFC 7515 §4.1.9).
    static func headerType(of token: String) -> String? {
        guard let first = token.split(separator: ".", omittingEmptySubsequences: false).first,
            let data = Base64URL.decode(String(first)),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let type = object["typ"] as? String
        else { return nil }
        return type.lowercased()
    }
}

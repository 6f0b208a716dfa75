import Crypto
import Foundation
import JWTKit
import SesameProtocol
import SesameStore

/// Mints ID tokens and RFC 9068 access tokens with the ``KeyRing``, and random refresh tokens.
package struct TokenIssuer: Sendable {
    /// The issuer identifier, exactly as in discovery.
    package let issuer: String
    package let keyRing: KeyRing
    package let now: @Sendable () -> Date

    package init(issuer: String, keyRing: KeyRing, now: @escaping @Sendable () -> Date) {
        self.issuer = issuer
        self.keyRing = keyRing
        self.now = now
    }

    /// A new access token and its claims, signed with the client's `accessTokenSigningAlg`
    /// (`RS256` unless the client opted into `ES256`; RFC 9068 §2.1 lets the AS choose, and every
    /// resource server reading the JWKS supports both). `claims` is the grant's `claims` request parameter
    /// (OIDC Core §5.5): the user claims it asks the UserInfo endpoint for travel in the token.
    /// With `confirmation` the token is bound to a DPoP key (RFC 9449 §6.1 `cnf.jkt`) or a TLS
    /// client certificate (RFC 8705 §3.1 `cnf.x5t#S256`). `audience` is its `aud`: the APIs it is
    /// for (``TokenAudience``), the issuer when `nil`.
    package func accessToken(
        client: ClientRecord, subject: String, scope: String,
        authentication: AuthenticationContext?, sessionID: String?, familyID: String?,
        claims: RequestedClaims? = nil, confirmation: TokenConfirmation?, audience: [String]? = nil
    ) async throws -> (token: String, claims: AccessTokenClaims) {
        let issuedAt = Int(now().timeIntervalSince1970)
        let claims = AccessTokenClaims(
            iss: issuer, sub: subject, aud: AudienceClaim(value: audience ?? [issuer]), exp: issuedAt + client.accessTokenLifetime,
            iat: issuedAt, jti: SecureRandom.token(byteCount: 16), clientID: client.clientID,
            scope: scope,
            authTime: authentication.map { Int($0.authTime.timeIntervalSince1970) },
            acr: authentication?.acr, amr: authentication?.amr, sid: sessionID, fid: familyID,
            userinfoClaims: claims.flatMap { $0.userinfoClaims.isEmpty ? nil : $0.userinfoClaims.sorted() },
            cnf: confirmation,
            gty: authentication == nil ? AccessTokenClaims.clientOnlyGrantType : nil)
        let token = try await keyRing.sign(claims, algorithm: client.accessTokenSigningAlg, type: "at+jwt")
        return (token, claims)
    }

    /// An ID token (OIDC Core §2, §3.1.3.6), signed with the client's `idTokenSigningAlg`.
    /// With a `claims` request (§5.5), `userClaims` are the user's claims it asked the ID token
    /// for, and `acr` is reported as §5.5.1.1 requires (``RequestedClaims/reportedACR(_:)``).
    package func idToken(
        client: ClientRecord, authentication: AuthenticationContext, nonce: String?,
        sessionID: String?, accessToken: String, claims: RequestedClaims? = nil,
        userClaims: StandardClaims? = nil, deviceSecretHash: String? = nil
    ) async throws -> String {
        let issuedAt = Int(now().timeIntervalSince1970)
        var claims = IDTokenClaims(
            iss: issuer, sub: authentication.userID, aud: client.clientID, azp: client.clientID,
            exp: issuedAt + client.idTokenLifetime, iat: issuedAt,
            authTime: Int(authentication.authTime.timeIntervalSince1970), nonce: nonce,
            acr: claims?.reportedACR(authentication.acr) ?? authentication.acr,
            amr: authentication.amr.isEmpty ? nil : authentication.amr,
            sid: sessionID, atHash: Self.atHash(accessToken), userClaims: userClaims)
        claims.dsHash = deviceSecretHash
        return try await keyRing.sign(claims, algorithm: client.idTokenSigningAlg, type: "JWT")
    }

    /// RFC 6749 §5.1 `token_type`: `DPoP` for a token bound to a DPoP key (RFC 9449 §5), else
    /// `Bearer`, also for a certificate-bound one (RFC 8705 §3: the TLS connection carries the proof).
    package static func tokenType(_ confirmation: TokenConfirmation?) -> String {
        confirmation?.jkt == nil ? "Bearer" : DPoP.scheme
    }

    /// A new refresh token: 256 random bits (RFC 6749 §10.10), stored only as a digest.
    package static func newRefreshToken() -> (token: String, digest: String) {
        let token = SecureRandom.token()
        return (token, SecretDigest.of(token))
    }

    /// OIDC Core §3.1.3.6: base64url of the left half of SHA-256 of the ASCII access token
    /// (the hash matching RS256 and ES256).
    package static func atHash(_ accessToken: String) -> String {
        Base64URL.sha256(of: accessToken, prefix: SHA256.byteCount / 2)
    }
}

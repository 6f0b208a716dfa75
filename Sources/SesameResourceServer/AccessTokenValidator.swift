import Foundation
import SesameJOSE
import SesameProtocol

/// Validates JWT access tokens as RFC 9068 §4 requires of a resource server, framework-free:
///
/// 1. the JOSE `typ` is `at+jwt` (or `application/at+jwt`), so an ID token or another JWT signed
///    by the same keys is refused;
/// 2. `alg` is one of ``allowedAlgorithms``: asymmetric only, never `none` or an HMAC (RFC 8725
///    §3.1-3.2: a public key used as an HMAC secret is the classic forgery);
/// 3. the signature verifies with the issuer's key named by `kid` (``JWKSCache``, refetched once
///    when the `kid` is unknown);
/// 4. `iss` equals the issuer exactly; `aud` contains this API's ``audience``;
/// 5. `exp` has not passed and `nbf`/`iat` are not in the future, each with ``leeway``;
/// 6. the request's scopes are all in `scope` (RFC 6750 §3.1 `insufficient_scope` otherwise).
///
/// The parsing is the SDK's single-pass reader: full validation costs little more than the
/// signature check itself (`Benchmarks/`, "Access token validation").
public struct AccessTokenValidator: Sendable {
    /// The `iss` every token must carry, exactly as in the issuer's discovery document.
    public let issuer: String
    /// The value `aud` must contain: this API's identifier. Sesame puts its issuer URL in `aud`
    /// unless the client asked for a resource.
    public let audience: String
    /// Clock skew tolerated on `exp`, `nbf` and `iat`.
    public let leeway: TimeInterval
    /// The signature algorithms accepted (RFC 9068 §4 step 5 with RFC 8725 §3.1).
    public let allowedAlgorithms: Set<String>
    /// Tokens longer than this are refused before any parsing.
    public let maximumTokenLength: Int
    /// The issuer's keys.
    public let keys: JWKSCache
    /// The checks of DPoP proofs for DPoP-bound tokens (RFC 9449 §7.1).
    public let dpop: DPoPValidation
    let now: @Sendable () -> Date

    /// The asymmetric algorithms Sesame and most providers sign with.
    public static let asymmetricAlgorithms: Set<String> = [
        "RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA",
    ]

    /// - Parameters:
    ///   - issuer: the authorization server's issuer identifier.
    ///   - audience: this API's identifier, as the tokens' `aud` names it.
    ///   - keys: where the issuer's keys come from; by default the issuer's discovery document.
    ///   - leeway: the clock skew tolerated on `exp`, `nbf` and `iat`, in seconds.
    ///   - allowedAlgorithms: the `alg` values accepted; only asymmetric ones are kept.
    ///   - maximumTokenLength: tokens longer than this many bytes are refused unread.
    ///   - dpop: how DPoP proofs are checked (their age, the replay cache).
    ///   - now: the clock (tests pass their own).
    public init(
        issuer: String, audience: String, keys: JWKSCache? = nil, leeway: TimeInterval = 30,
        allowedAlgorithms: Set<String> = asymmetricAlgorithms, maximumTokenLength: Int = 16 * 1024,
        dpop: DPoPValidation = DPoPValidation(), now: @escaping @Sendable () -> Date = Date.init
    ) {
        self.dpop = dpop
        self.issuer = issuer
        self.audience = audience
        self.keys = keys ?? JWKSCache(discoveringFrom: issuer, now: now)
        self.leeway = max(0, leeway)
        self.allowedAlgorithms = allowedAlgorithms.intersection(Self.asymmetricAlgorithms)
        self.maximumTokenLength = maximumTokenLength
        self.now = now
    }

    /// Validates `token` (the credentials of `Authorization: Bearer`) and checks it carries
    /// `requiredScopes`. Throws the rule that failed; never logs or returns the token.
    public func validate(_ token: String, requiredScopes: some Collection<String> = [String]())
        async throws(AccessTokenError) -> VerifiedAccessToken
    {
        let (header, payload, jws, signature) = try Self.split(token, maximumLength: maximumTokenLength)
        guard let typ = header.typ, Self.isAccessTokenType(typ) else {
            throw AccessTokenError(.type, "typ is \(header.typ ?? "absent"), not at+jwt: not an access token (RFC 9068 §4)")
        }
        guard let alg = header.alg, allowedAlgorithms.contains(alg) else {
            throw AccessTokenError(.algorithm, "alg \(header.alg ?? "(missing)") is not accepted; allowed: \(allowedAlgorithms.sorted().joined(separator: ", "))")
        }
        if let critical = header.crit, !critical.isEmpty {
            throw AccessTokenError(.malformed, "unsupported critical header parameters \(critical)")
        }
        try await verifySignature(signature, of: jws, kid: header.kid, alg: alg)
        let claims = try VerifiedAccessToken(jwtPayload: payload)
        try check(claims)
        let missing = requiredScopes.filter { !claims.hasScope($0) }
        guard missing.isEmpty else {
            throw AccessTokenError(
                .scope, "the token lacks the scope \(missing.joined(separator: " "))", requiredScopes: Array(requiredScopes))
        }
        return claims
    }

    /// `at+jwt` or `application/at+jwt`, compared without regard to ASCII case (media types,
    /// RFC 7515 §4.1.9), without allocating.
    static func isAccessTokenType(_ typ: String) -> Bool {
        func equalsIgnoringCase(_ a: String.UTF8View, _ b: StaticString) -> Bool {
            guard a.count == b.utf8CodeUnitCount else { return false }
            return b.withUTF8Buffer { expected in
                zip(a, expected).allSatisfy { lhs, rhs in
                    (lhs >= 0x41 && lhs <= 0x5A ? lhs | 0x20 : lhs) == rhs
                }
            }
        }
        return equalsIgnoringCase(typ.utf8, "at+jwt") || equalsIgnoringCase(typ.utf8, "application/at+jwt")
    }

    /// Splits and decodes a compact JWS (RFC 7515 §7.1) and reads its header.
    static func split(_ token: String, maximumLength: Int) throws(AccessTokenError)
        -> (JOSEHeader, [UInt8], CompactJWS, [UInt8])
    {
        guard token.utf8.count <= maximumLength else {
            throw AccessTokenError(.malformed, "the token is longer than \(maximumLength) bytes")
        }
        guard let jws = CompactJWS(token), let headerBytes = Base64URL.decode(bytes: jws.header),
            let payload = Base64URL.decode(bytes: jws.payload), let signature = Base64URL.decode(bytes: jws.signature)
        else {
            throw AccessTokenError(.malformed, "not a compact JWS of three base64url parts (RFC 7515 §7.1)")
        }
        do {
            return (try JOSEHeader(json: headerBytes), payload, jws, signature)
        } catch {
            throw AccessTokenError(.malformed, "the JOSE header is not a valid JSON object")
        }
    }

    /// RFC 9068 §4 step 5, with one refetch of the keys when the `kid` is unknown (rotation).
    private func verifySignature(_ signature: [UInt8], of jws: CompactJWS, kid: String?, alg: String)
        async throws(AccessTokenError)
    {
        var outcome = try await keys.keys().check(signature, overBytes: jws.signingInput, kid: kid, alg: alg)
        if outcome == .unknownKey, let fresh = await keys.keysAfterUnknownKey() {
            outcome = fresh.check(signature, overBytes: jws.signingInput, kid: kid, alg: alg)
        }
        switch outcome {
        case .valid: return
        case .unknownKey:
            throw AccessTokenError(.unknownKey, "no key of the issuer has kid \(kid ?? "(none)")")
        case .algorithmNotAllowed:
            throw AccessTokenError(.algorithm, "the key \(kid ?? "(no kid)") may not be used with \(alg)")
        case .invalidSignature:
            throw AccessTokenError(.signature, "the \(alg) signature does not verify")
        }
    }

    /// RFC 9068 §4 steps 3, 4 and 6.
    private func check(_ claims: VerifiedAccessToken) throws(AccessTokenError) {
        guard claims.issuer == issuer else {
            throw AccessTokenError(.issuer, "iss is \(claims.issuer), not \(issuer)")
        }
        guard claims.audience.contains(audience) else {
            throw AccessTokenError(.audience, "aud \(claims.audience) does not name \(audience)")
        }
        let time = now()
        guard time.timeIntervalSince(claims.expiresAt) < leeway else {
            throw AccessTokenError(.expired, "the token expired at \(claims.expiresAt)")
        }
        if let notBefore = claims.notBefore, notBefore.timeIntervalSince(time) > leeway {
            throw AccessTokenError(.notYetValid, "nbf \(notBefore) is in the future")
        }
        guard claims.issuedAt.timeIntervalSince(time) <= leeway else {
            throw AccessTokenError(.notYetValid, "iat \(claims.issuedAt) is in the future")
        }
    }
}

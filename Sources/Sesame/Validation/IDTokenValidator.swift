import Crypto
import Foundation
import JWTKit
import SesameJOSE
import SesameProtocol

/// Validates an ID token per OpenID Connect Core 1.0 §3.1.3.7, step by step, reporting the
/// failed rule as ``SesameError/Code-swift.struct/invalidIDToken``.
///
/// Synchronous and allocation-light: the header and payload are each decoded once, keys come
/// pre-parsed in a `JWKSet`, and the claim rules are plain value checks.
public struct IDTokenValidator: Sendable {
    /// Asymmetric algorithms accepted by default (RFC 7518 §3.1, RFC 8037).
    public static let defaultAlgorithms: Set<String> = [
        "RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA",
    ]
    /// HMAC algorithms, accepted only with a client secret as the key (§3.1.3.7 step 8, §10.1).
    public static let hmacAlgorithms: Set<String> = ["HS256", "HS384", "HS512"]

    /// The rules applied after the signature verified, in §3.1.3.7 order.
    public static let standardRules: [any IDTokenClaimValidator] = [
        SubjectValidator(), IssuerValidator(), AudienceValidator(), AuthorizedPartyValidator(),
        ExpirationValidator(), IssuedAtValidator(), NonceValidator(), ACRValidator(),
        EssentialACRValidator(), AuthTimeValidator(), AccessTokenHashValidator(),
        RequestedSubjectValidator(),
    ]

    /// The `alg` values a token may be signed with: the asymmetric ones asked for, never `none`, plus
    /// ``hmacAlgorithms`` only when a client secret was given (§3.1.3.7 steps 6–8).
    public let allowedAlgorithms: Set<String>
    /// The claim rules run, in order, after the signature verified; the first failure is thrown.
    public let rules: [any IDTokenClaimValidator]
    private let hmacKey: SymmetricKey?

    /// - Parameters:
    ///   - clientSecret: enables HS256/384/512 with the UTF-8 octets of the secret as key.
    ///   - allowedAlgorithms: asymmetric algorithms to accept; `none` is never accepted.
    ///   - rules: claim rules; defaults to ``standardRules``.
    public init(
        clientSecret: String? = nil, allowedAlgorithms: Set<String> = IDTokenValidator.defaultAlgorithms,
        rules: [any IDTokenClaimValidator] = IDTokenValidator.standardRules
    ) {
        var algorithms = allowedAlgorithms.subtracting(Self.hmacAlgorithms)
        algorithms.remove("none")
        if let clientSecret, !clientSecret.isEmpty {
            hmacKey = SymmetricKey(data: Data(clientSecret.utf8))
            algorithms.formUnion(Self.hmacAlgorithms)
        } else {
            hmacKey = nil
        }
        self.allowedAlgorithms = algorithms
        self.rules = rules
    }

    /// Verifies signature and claims; returns the validated claims.
    public func validate(_ jwt: String, expected: IDTokenExpectations, keys: JWKSet)
        throws(SesameError) -> IDTokenClaims
    {
        // Step 1 (encryption) does not apply: Sesame registers no ID token encryption.
        // Steps 6–8: signature with an allowed algorithm and the key named by `kid`.
        let (header, payload) = try verifySignature(jwt, keys: keys)
        let claims: IDTokenClaims
        do {
            claims = try IDTokenClaims(jwtPayload: payload)
        } catch let error as NumericDateError {
            throw .invalidIDToken(Self.rule(for: error.claim), detail: "\(error.description); the provider issued an invalid ID token")
        } catch {
            throw .invalidIDToken(.malformed, detail: "the ID token payload is not a JSON claims object")
        }
        // Steps 2–5 and 9–13, §2 `sub`, `at_hash`, and the §5.5 `claims` request.
        for rule in rules {
            try rule.validate(claims, alg: header.alg ?? "", expected: expected)
        }
        return claims
    }

    /// The rule a time claim that is not a NumericDate breaks.
    static func rule(for claim: String) -> IDTokenRule {
        switch claim {
        case "exp": .expired
        case "iat": .issuedAt
        case "auth_time": .authTime
        default: .malformed
        }
    }

    /// Checks the JWS structure, algorithm and signature (§3.1.3.7 steps 6–8) and returns the
    /// header and the payload bytes. Works for any JWS payload, not only JSON claims.
    func verifySignature(_ jwt: String, keys: JWKSet) throws(SesameError) -> (JOSEHeader, [UInt8]) {
        guard let jws = CompactJWS(jwt),
            let headerBytes = Base64URL.decode(bytes: jws.header),
            let payloadBytes = Base64URL.decode(bytes: jws.payload),
            let signature = Base64URL.decode(bytes: jws.signature)
        else {
            throw .invalidIDToken(.malformed, detail: "not a compact JWS (RFC 7515 §7.1)")
        }
        let header: JOSEHeader
        do {
            header = try JOSEHeader(json: headerBytes)
        } catch {
            throw .invalidIDToken(.malformed, detail: "the JOSE header is not valid JSON")
        }
        guard let alg = header.alg, alg != "none", allowedAlgorithms.contains(alg) else {
            let named = header.alg ?? "(missing)"
            let hint = Self.hmacAlgorithms.contains(named)
                ? " (HMAC is accepted only when a client secret is configured)" : ""
            throw .invalidIDToken(.algorithm, detail: "alg \(named) is not accepted\(hint)")
        }
        if let critical = header.crit, !critical.isEmpty {
            throw .invalidIDToken(.malformed, detail: "unsupported critical header parameters \(critical)")
        }
        if Self.hmacAlgorithms.contains(alg) {
            try verifyHMAC(alg: alg, signature: signature, input: jws.signingInput)
            return (header, payloadBytes)
        }
        try keys.verifySignature(signature, overBytes: jws.signingInput, kid: header.kid, alg: alg)
        return (header, payloadBytes)
    }

    private func verifyHMAC(alg: String, signature: [UInt8], input: ArraySlice<UInt8>)
        throws(SesameError)
    {
        guard let hmacKey else {
            throw .invalidIDToken(.algorithm, detail: "HMAC requires a client secret")
        }
        let expected: [UInt8]
        switch alg {
        case "HS256": expected = Array(HMAC<SHA256>.authenticationCode(for: input, using: hmacKey))
        case "HS384": expected = Array(HMAC<SHA384>.authenticationCode(for: input, using: hmacKey))
        default: expected = Array(HMAC<SHA512>.authenticationCode(for: input, using: hmacKey))
        }
        guard ConstantTime.equals(expected, signature) else {
            throw .invalidIDToken(.signature, detail: "the \(alg) signature does not verify")
        }
    }
}

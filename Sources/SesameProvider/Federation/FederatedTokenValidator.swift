import Crypto
import Foundation
import JWTKit
import SesameProtocol
import SesameStore

/// Checks a provider's ID token we did not request ourselves: the rules of OIDC Core §3.1.3.7
/// that apply, each failure its own ``FederationRefusal``:
/// 1. a compact JWS whose `alg` is asymmetric (RS256/384/512, PS256/384/512, ES256/384,
///    EdDSA): never `none`, never an HMAC (a public key must not become a shared secret);
/// 2. the signature verifies with the provider's keys (``ProviderKeys``; one refetch on an
///    unknown `kid`);
/// 3. `iss` is the provider's exactly;
/// 4. `aud` holds one of the registered audiences; with several, `azp` is one of them
///    (Google's tokens for an Android or iOS client);
/// 5. `exp` has not passed and `iat` is not in the future (60 s leeway);
/// 6. the app's `nonce`, when it sent one, matches: equal, or for Apple the hex SHA-256 of it;
/// 7. the provider's required claim is present (`email` by default);
/// and, before all of them, no `crit` header (RFC 7515 §4.1.11), and a `sub` of 1–255
/// characters (OIDC Core §2).
package struct FederatedTokenValidator: Sendable {
    package static let leeway: TimeInterval = 60
    package static let asymmetric: Set<String> = ["RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "EdDSA"]

    package let keys: ProviderKeys
    package let now: @Sendable () -> Date

    package init(keys: ProviderKeys, now: @escaping @Sendable () -> Date) {
        self.keys = keys
        self.now = now
    }

    package func validate(_ token: String, provider: FederationProviderRecord, nonce: String?) async throws(FederationRefusal)
        -> FederatedClaims
    {
        let header = try Self.header(token)
        // RFC 7515 §4.1.11: a `crit` extension the recipient does not understand makes the JWS
        // invalid. Sesame understands none.
        if header["crit"] != nil {
            throw .invalidToken(rule: "crit", "the token's header has a crit member, and no critical extension is supported")
        }
        guard let alg = header["alg"] as? String, Self.asymmetric.contains(alg) else {
            throw .invalidToken(
                rule: "alg", "the token's alg \"\(header["alg"] as? String ?? "")\" is not an asymmetric signature algorithm")
        }
        let collection = try await keys.keys(for: provider, kid: header["kid"] as? String)
        let claims: FederatedClaims
        do {
            claims = try await collection.verify(token, as: FederatedClaims.self)
        } catch is DecodingError {
            throw .invalidToken(rule: "claims", "the token lacks iss, sub, aud or exp")
        } catch {
            throw .invalidToken(rule: "signature", "the signature does not verify with the provider's keys")
        }
        // OIDC Core §2: `sub` is a locally unique identifier of at most 255 ASCII characters; an
        // empty one would link every such token to one account.
        guard !claims.sub.isEmpty, claims.sub.utf8.count <= 255 else {
            throw .invalidToken(rule: "sub", "sub must be 1 to 255 characters (OpenID Connect Core section 2)")
        }
        guard claims.iss == provider.issuer else {
            throw .invalidToken(rule: "iss", "iss is \"\(claims.iss)\", not the provider's \(provider.issuer)")
        }
        let accepted = Set(provider.audiences)
        guard claims.aud.value.contains(where: accepted.contains) else {
            throw .wrongAudience("the token was issued for another audience than \(provider.audiences.joined(separator: ", "))")
        }
        if claims.aud.value.count > 1 || claims.azp != nil, let azp = claims.azp, !accepted.contains(azp) {
            throw .wrongAudience("azp \"\(azp)\" is not a registered audience")
        }
        let now = now().timeIntervalSince1970
        guard let exp = claims.exp else { throw .invalidToken(rule: "claims", "the token lacks iss, sub, aud or exp") }
        let expiry = try Self.numericDate(exp)
        guard expiry.secondsSince1970 + Self.leeway > now else { throw .expired("the token expired (exp)") }
        if let iat = try claims.iat.map(Self.numericDate), iat.secondsSince1970 > now + Self.leeway {
            throw .invalidToken(rule: "iat", "the token was issued in the future (iat)")
        }
        if let nonce, !nonce.isEmpty {
            let expected = provider.kind == .apple ? Self.sha256Hex(nonce) : nonce
            guard let sent = claims.nonce, ConstantTime.equals(sent, expected) else {
                throw .invalidToken(rule: "nonce", "the token's nonce does not match the one the app sent")
            }
        }
        guard claims.present.contains(provider.requiredClaim) else {
            throw .missingClaim("the token has no \(provider.requiredClaim) claim, which this provider requires")
        }
        return claims
    }

    /// A time claim that is a NumericDate in range (RFC 7519 §2), or the refusal naming it,
    /// e.g. "exp 1e+30 is beyond year 9999 …".
    package static func numericDate(_ claim: Result<NumericDate, NumericDateError>) throws(FederationRefusal) -> NumericDate {
        switch claim {
        case .success(let date): return date
        case .failure(let error):
            throw .invalidToken(rule: error.claim, "\(error.description); the provider's token is invalid")
        }
    }

    /// The JOSE header of a compact JWS.
    package static func header(_ token: String) throws(FederationRefusal) -> [String: Any] {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, token.utf8.count <= 16_384, let data = Base64URL.decode(String(parts[0])),
            let header = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { throw .invalidToken(rule: "jws", "subject_token is not a compact JWS") }
        return header
    }

    /// Sign in with Apple puts SHA-256 of the app's nonce, lowercase hex, in the token.
    package static func sha256Hex(_ text: String) -> String {
        SHA256.hash(data: Data(text.utf8)).map { String(format: "%02x", $0) }.joined()
    }
}

import Crypto
import Foundation
import SesameProtocol

/// Builds DPoP proofs (RFC 9449 §4.2) in tests from the RFC's rules, with a P-256 key of its own,
/// and lets a test break any rule: any header or claim replaced or removed, another signature.
public struct DPoPProofMaker: Sendable {
    public let key: P256.Signing.PrivateKey

    public init(key: P256.Signing.PrivateKey = P256.Signing.PrivateKey()) { self.key = key }

    /// The public key as a JWK (RFC 7518 §6.2.1).
    public var publicJWK: [String: String] {
        let raw = key.publicKey.rawRepresentation
        return [
            "kty": "EC", "crv": "P-256", "x": Base64URL.encode(raw.prefix(32)), "y": Base64URL.encode(raw.suffix(32)),
        ]
    }

    /// RFC 7638 thumbprint of the key: the `jkt` tokens are bound to.
    public var thumbprint: String {
        let raw = key.publicKey.rawRepresentation
        return JWKThumbprint.ec(curve: "P-256", x: Array(raw.prefix(32)), y: Array(raw.suffix(32)))
    }

    /// A valid proof for `method` and `url`, with `ath` for `accessToken` and the `nonce`, and
    /// the header and claims changed by `header` and `claims` (`NSNull()` removes a member).
    package func proof(
        _ method: String, _ url: String, accessToken: String? = nil, nonce: String? = nil,
        issuedAt: Date = Date(), jti: String = SecureRandom.token(byteCount: 16),
        header: [String: any Sendable] = [:], claims: [String: any Sendable] = [:],
        signature: ((Data) -> Data)? = nil
    ) -> String {
        var head: [String: Any] = ["typ": "dpop+jwt", "alg": "ES256", "jwk": publicJWK]
        for (name, value) in header {
            if value is NSNull { head.removeValue(forKey: name) } else { head[name] = value }
        }
        var body: [String: Any] = ["jti": jti, "htm": method, "htu": url, "iat": Int(issuedAt.timeIntervalSince1970)]
        if let accessToken { body["ath"] = DPoP.accessTokenHash(accessToken) }
        if let nonce { body["nonce"] = nonce }
        for (name, value) in claims {
            if value is NSNull { body.removeValue(forKey: name) } else { body[name] = value }
        }
        return Self.sign(header: head, claims: body) { input in
            signature?(input) ?? ((try? key.signature(for: input).rawRepresentation) ?? Data())
        }
    }

    /// A compact JWS of `header` and `claims` with the signature `sign` makes over the signing input.
    public static func sign(header: [String: Any], claims: [String: Any], _ sign: (Data) -> Data) -> String {
        let encode = { (object: [String: Any]) in
            Base64URL.encode((try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data())
        }
        let input = encode(header) + "." + encode(claims)
        return input + "." + Base64URL.encode(sign(Data(input.utf8)))
    }
}

import Crypto
import Foundation
import TestSupport
import SesameProtocol

@testable import Sesame

/// Builds compact JWS tokens for tests, including deliberately forged ones.
enum JWSBuilder {
    static func encodeJSON(_ object: [String: Any]) -> String {
        let data = try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        return Base64URL.encode(data)
    }

    /// `header.payload.signature` with `sign` applied to the signing input.
    static func compact(header: [String: Any], claims: [String: Any], sign: (Data) -> Data) -> String {
        let input = encodeJSON(header) + "." + encodeJSON(claims)
        return input + "." + Base64URL.encode(sign(Data(input.utf8)))
    }
}

/// A P-256 signing key with its public JWK.
struct ES256TestKey: @unchecked Sendable {
    let kid: String
    let key = P256.Signing.PrivateKey()

    var jwk: [String: Any] {
        let raw = key.publicKey.x963Representation.dropFirst()
        return [
            "kty": "EC", "crv": "P-256", "kid": kid, "use": "sig", "alg": "ES256",
            "x": Base64URL.encode(raw.prefix(32)), "y": Base64URL.encode(raw.suffix(32)),
        ]
    }

    func sign(_ claims: [String: Any], header: [String: Any]? = nil) -> String {
        JWSBuilder.compact(header: header ?? ["alg": "ES256", "kid": kid, "typ": "JWT"], claims: claims) {
            try! key.signature(for: $0).rawRepresentation
        }
    }
}

/// An Ed25519 signing key with its public JWK.
struct EdDSATestKey: @unchecked Sendable {
    let kid: String
    let key = Curve25519.Signing.PrivateKey()

    var jwk: [String: Any] {
        ["kty": "OKP", "crv": "Ed25519", "kid": kid, "x": Base64URL.encode(key.publicKey.rawRepresentation)]
    }

    func sign(_ claims: [String: Any]) -> String {
        JWSBuilder.compact(header: ["alg": "EdDSA", "kid": kid], claims: claims) {
            try! key.signature(for: $0)
        }
    }
}

enum JWKSJSON {
    static func data(_ keys: [[String: Any]]) -> Data {
        try! JSONSerialization.data(withJSONObject: ["keys": keys])
    }
}

/// Standard claims of a valid ID token for the test provider.
func idTokenClaims(
    issuer: String = "https://id.test", clientID: String = "app", subject: String? = "user-1",
    nonce: String? = "n-0S6_WzA2Mj", now: Date, lifetime: TimeInterval = 300,
    extra: [String: Any] = [:]
) -> [String: Any] {
    var claims: [String: Any] = [
        "iss": issuer, "aud": clientID, "exp": Int(now.timeIntervalSince1970 + lifetime),
        "iat": Int(now.timeIntervalSince1970), "auth_time": Int(now.timeIntervalSince1970),
    ]
    if let subject { claims["sub"] = subject }
    if let nonce { claims["nonce"] = nonce }
    for (key, value) in extra { claims[key] = value }
    return claims
}

/// Loads a JSON vector from `Tests/Fixtures/vectors`.
enum Vectors {
    static func load(_ name: String) throws -> [String: Any] {
        try FixtureFiles.json("vectors/\(name)")
    }
}

import Crypto
import Foundation
import JWTKit
import Sesame
import SesameProtocol
import _CryptoExtras

/// ID tokens signed in-process with fresh RS256 and ES256 keys, the JWKS that publishes them,
/// and a jwt-kit key collection holding only the public keys (the signature-only baseline).
struct TokenFixtures: Sendable {
    static let issuer = "https://id.example.com"
    static let clientID = "bench-app"
    static let nonce = "n-0S6_WzA2Mj"
    let accessToken: String
    let rs256Token: String
    let es256Token: String
    let jwks: JWKSet
    let jwtKitVerifier: JWTKeyCollection

    static func make() async throws -> TokenFixtures {
        let rsa = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        let ec = P256.Signing.PrivateKey()
        let signer = JWTKeyCollection()
        await signer.add(rsa: try Insecure.RSA.PrivateKey(backing: rsa), digestAlgorithm: .sha256, kid: "rs")
        await signer.add(ecdsa: try ES256PrivateKey(backing: ec), kid: "es")
        let verifier = JWTKeyCollection()
        await verifier.add(rsa: try Insecure.RSA.PublicKey(backing: rsa.publicKey), digestAlgorithm: .sha256, kid: "rs")
        await verifier.add(ecdsa: try ES256PublicKey(backing: ec.publicKey), kid: "es")

        let point = ec.publicKey.rawRepresentation
        let jwksJSON: [String: Any] = [
            "keys": [
                try jwk(rsa: rsa.publicKey, kid: "rs"),
                ["kty": "EC", "kid": "es", "use": "sig", "alg": "ES256", "crv": "P-256",
                 "x": Base64URL.encode(point.prefix(32)), "y": Base64URL.encode(point.suffix(32))],
            ]
        ]
        let jwks = try JWKSet.parse(try JSONSerialization.data(withJSONObject: jwksJSON))

        let accessToken = FixtureBytes.token(byteCount: 48)
        let claims = BenchIDTokenClaims(
            iss: issuer, sub: "248289761001", aud: clientID, exp: Int(Date().timeIntervalSince1970) + 3600,
            iat: Int(Date().timeIntervalSince1970), auth_time: Int(Date().timeIntervalSince1970),
            nonce: nonce, acr: "urn:sesame:loa:1", amr: ["pwd"], azp: clientID,
            at_hash: atHash(accessToken), email: "bench@example.com", name: "Bench Mark")
        let rs = try await signer.sign(claims, kid: "rs")
        let es = try await signer.sign(claims, kid: "es")
        return TokenFixtures(accessToken: accessToken, rs256Token: rs, es256Token: es, jwks: jwks, jwtKitVerifier: verifier)
    }

    private init(accessToken: String, rs256Token: String, es256Token: String, jwks: JWKSet, jwtKitVerifier: JWTKeyCollection) {
        self.accessToken = accessToken
        self.rs256Token = rs256Token
        self.es256Token = es256Token
        self.jwks = jwks
        self.jwtKitVerifier = jwtKitVerifier
    }

    var expectations: IDTokenExpectations {
        IDTokenExpectations(
            issuer: Self.issuer, clientID: Self.clientID, nonce: Self.nonce, accessToken: accessToken, now: Date())
    }

    /// The public JWK (RFC 7517 §4, RFC 7518 §6.3.1) of an RS256 key.
    static func jwk(rsa key: _RSA.Signing.PublicKey, kid: String) throws -> [String: Any] {
        let primitives = try key.getKeyPrimitives()
        return [
            "kty": "RSA", "kid": kid, "use": "sig", "alg": "RS256",
            "n": Base64URL.encode(primitives.modulus), "e": Base64URL.encode(primitives.publicExponent),
        ]
    }

    static func atHash(_ token: String) -> String {
        let digest = Array(SHA256.hash(data: Data(token.utf8)))
        return Base64URL.encode(digest.prefix(16))
    }
}

struct BenchIDTokenClaims: JWTPayload {
    var iss: String
    var sub: String
    var aud: String
    var exp: Int
    var iat: Int
    var auth_time: Int
    var nonce: String
    var acr: String
    var amr: [String]
    var azp: String
    var at_hash: String
    var email: String
    var name: String

    func verify(using algorithm: some JWTAlgorithm) throws {}
}

/// jwt-kit's signature check with no claim work: the payload type reads no fields.
struct SignatureOnly: JWTPayload {
    func verify(using algorithm: some JWTAlgorithm) throws {}
}

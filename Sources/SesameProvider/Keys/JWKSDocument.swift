import SesameStore
import Foundation
import SesameProtocol

/// A public signing key as published in the JWKS (RFC 7517 §4, RFC 7518 §6.2.1 and §6.3.1).
public struct PublishedJWK: Codable, Sendable, Equatable {
    public var kty: String
    public var kid: String
    public var use: String
    public var alg: String
    // RSA (RFC 7518 §6.3.1)
    public var n: String?
    public var e: String?
    // EC (RFC 7518 §6.2.1)
    public var crv: String?
    public var x: String?
    public var y: String?

    package static func rsa(modulus: Data, exponent: Data, kid: String = "") -> PublishedJWK {
        PublishedJWK(
            kty: "RSA", kid: kid, use: "sig", alg: SigningAlgorithm.rs256.rawValue,
            n: Base64URL.encode(modulus), e: Base64URL.encode(exponent))
    }

    package static func ec(x: String, y: String, kid: String = "") -> PublishedJWK {
        PublishedJWK(
            kty: "EC", kid: kid, use: "sig", alg: SigningAlgorithm.es256.rawValue, crv: "P-256",
            x: x, y: y)
    }

    /// RFC 7638 JWK thumbprint (SHA-256 of the required members in lexicographic order), used
    /// as the `kid`: deterministic, and a check that a stored key matches its id.
    package var thumbprint: String {
        let canonical: String
        if kty == "RSA" {
            canonical = #"{"e":"\#(e ?? "")","kty":"RSA","n":"\#(n ?? "")"}"#
        } else {
            canonical = #"{"crv":"\#(crv ?? "")","kty":"EC","x":"\#(x ?? "")","y":"\#(y ?? "")"}"#
        }
        return Base64URL.sha256(of: canonical)
    }

    package init(
        kty: String, kid: String, use: String, alg: String, n: String? = nil, e: String? = nil,
        crv: String? = nil, x: String? = nil, y: String? = nil
    ) {
        self.kty = kty
        self.kid = kid
        self.use = use
        self.alg = alg
        self.n = n
        self.e = e
        self.crv = crv
        self.x = x
        self.y = y
    }
}

/// The `jwks_uri` document (RFC 7517 §5): `{"keys":[...]}`.
public struct JWKSDocument: Codable, Sendable, Equatable {
    public var keys: [PublishedJWK]

    public init(keys: [PublishedJWK]) {
        self.keys = keys
    }

    public func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }
}

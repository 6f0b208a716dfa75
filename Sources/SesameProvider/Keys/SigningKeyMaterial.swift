import SesameStore
import Foundation
import JWTKit

/// A parsed signing key: its record, public JWK and jwt-kit private key, ready to register in
/// a `JWTKeyCollection`.
package struct SigningKeyMaterial: Sendable {
    package enum PrivateKey: Sendable {
        case rsa(Insecure.RSA.PrivateKey)
        case ecdsa(ES256PrivateKey)
    }

    package var record: SigningKeyRecord
    package let algorithm: SigningAlgorithm
    package let privateKey: PrivateKey
    /// The public key with `kid` filled in.
    package let jwk: PublishedJWK

    package var kid: String { record.kid }

    /// Parses a PKCS#8 PEM private key; `kid` is the RFC 7638 thumbprint of its public key.
    package static func parse(pem: String, algorithm: SigningAlgorithm) throws -> (PrivateKey, PublishedJWK) {
        switch algorithm {
        case .rs256:
            let key = try Insecure.RSA.PrivateKey(pem: pem)
            let primitives = try key.publicKey.getKeyPrimitives()
            var jwk = PublishedJWK.rsa(modulus: primitives.modulus, exponent: primitives.publicExponent)
            jwk.kid = jwk.thumbprint
            return (.rsa(key), jwk)
        case .es256:
            let key = try ES256PrivateKey(pem: pem)
            guard let parameters = key.publicKey.parameters else {
                throw KeyRingError.unreadableKey(kid: "?", reason: "the EC key has no public point")
            }
            var jwk = PublishedJWK.ec(x: parameters.x, y: parameters.y)
            jwk.kid = jwk.thumbprint
            return (.ecdsa(key), jwk)
        }
    }

    /// Unseals and parses a stored key, checking that it matches its `kid`.
    package init(record: SigningKeyRecord, sealer: KeySealer) throws {
        guard let algorithm = SigningAlgorithm(rawValue: record.algorithm) else {
            throw KeyRingError.unreadableKey(
                kid: record.kid, reason: "unknown algorithm \(record.algorithm)")
        }
        let pem = try sealer.open(record.sealedPrivateKey, kid: record.kid)
        let parsed: (PrivateKey, PublishedJWK)
        do {
            parsed = try Self.parse(pem: pem, algorithm: algorithm)
        } catch {
            throw KeyRingError.unreadableKey(kid: record.kid, reason: "the PEM does not parse: \(error)")
        }
        guard parsed.1.kid == record.kid else {
            throw KeyRingError.unreadableKey(
                kid: record.kid, reason: "the key does not match its id (thumbprint \(parsed.1.kid))")
        }
        self.record = record
        self.algorithm = algorithm
        self.privateKey = parsed.0
        self.jwk = parsed.1
    }

    package func add(to collection: JWTKeyCollection) async {
        let kid = JWKIdentifier(string: record.kid)
        switch privateKey {
        case .rsa(let key): await JWSSignatureCheck.add(rs256: key, kid: kid, to: collection)
        case .ecdsa(let key): await JWSSignatureCheck.add(es256: key, kid: kid, to: collection)
        }
    }

    /// Published: from `createdAt` until `expiresAt`.
    package func isPublished(at now: Date) -> Bool {
        record.createdAt <= now && !isExpired(at: now)
    }

    package func isExpired(at now: Date) -> Bool {
        record.expiresAt.map { $0 <= now } ?? false
    }

    /// May sign: activated and not retired.
    package func canSign(at now: Date) -> Bool {
        record.activatesAt <= now && !(record.retiredAt.map { $0 <= now } ?? false)
            && !isExpired(at: now)
    }
}

import SesameStore
import Crypto
import Foundation
import JWTKit

/// The server's JWS signature primitives: how a key becomes a jwt-kit algorithm, and the
/// signature step of validating a token that names one of its keys. ``KeyRing`` registers its
/// keys and verifies every token it is shown (access tokens, `id_token_hint`) through these.
package enum JWSSignatureCheck {
    /// Registers `key` (private, or public to verify only) under `kid` as RS256:
    /// RSASSA-PKCS1-v1_5 with SHA-256 (RFC 7518 §3.3).
    package static func add(rs256 key: some RSAKey, kid: JWKIdentifier, to collection: JWTKeyCollection) async {
        await collection.add(rsa: key, digestAlgorithm: .sha256, kid: kid)
    }

    /// Registers `key` (private, or public to verify only) under `kid` as ES256: ECDSA on P-256
    /// with SHA-256, signatures the 64 octets `R || S` (RFC 7518 §3.4).
    package static func add<Key: ECDSAKey>(es256 key: Key, kid: JWKIdentifier, to collection: JWTKeyCollection) async
    where Key.Curve == P256 {
        await collection.add(ecdsa: key, kid: kid)
    }

    /// RFC 7515 §5.2 step 8 for a token naming our key `kid`: the header's `alg` must be the
    /// key's own (no algorithm substitution, RFC 8725 §3.1), then `verifier` must accept
    /// `signature` over `signingInput`, the octets `ASCII(BASE64URL(header) || '.' ||
    /// BASE64URL(payload))`. A signature the primitive cannot even read (an ES256 signature that
    /// is not 64 octets) is an invalid signature like any other.
    package static func verify(
        _ signature: some DataProtocol, over signingInput: some DataProtocol, alg: String,
        key algorithm: SigningAlgorithm, kid: String, with verifier: any JWTAlgorithm
    ) throws(KeyRingError) {
        guard alg == algorithm.rawValue else {
            throw .malformedToken(reason: "alg \(alg) does not match key \(kid) (\(algorithm.rawValue))")
        }
        guard (try? verifier.verify(signature, signs: signingInput)) == true else {
            throw .invalidSignature
        }
    }
}

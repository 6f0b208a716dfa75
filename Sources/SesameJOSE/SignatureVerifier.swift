import Crypto
import Foundation
import _CryptoExtras

/// One JWK's public key bound to one JWS algorithm (RFC 7518 §3.3-3.5, RFC 8037 §3.1), verifying
/// with swift-crypto directly over the signing input's bytes: no generic byte collections and no
/// existential dispatch on the validation hot path (docs/benchmarks.md, "Access token
/// validation").
package enum SignatureVerifier: Sendable {
    /// RSASSA-PKCS1-v1_5 (RS256/384/512, RFC 7518 §3.3).
    case rsaPKCS1(_RSA.Signing.PublicKey, DigestKind)
    /// RSASSA-PSS with MGF1 and a salt as long as the hash (PS256/384/512, RFC 7518 §3.5).
    case rsaPSS(_RSA.Signing.PublicKey, DigestKind)
    /// ECDSA with the fixed-length `R || S` signature (ES256/384/512, RFC 7518 §3.4).
    case p256(P256.Signing.PublicKey)
    case p384(P384.Signing.PublicKey)
    case p521(P521.Signing.PublicKey)
    /// EdDSA with Ed25519 (RFC 8037 §3.1).
    case ed25519(Curve25519.Signing.PublicKey)

    package enum DigestKind: Sendable {
        case sha256, sha384, sha512
    }

    /// Whether `signature` is valid over `input`. A signature of the wrong length or form is
    /// simply invalid.
    package func verify(_ signature: [UInt8], over input: UnsafeRawBufferPointer) -> Bool {
        switch self {
        case .rsaPKCS1(let key, let digest):
            return Self.rsa(key, signature, input, digest, padding: .insecurePKCS1v1_5)
        case .rsaPSS(let key, let digest):
            return Self.rsa(key, signature, input, digest, padding: .PSS)
        case .p256(let key):
            guard let parsed = try? P256.Signing.ECDSASignature(rawRepresentation: signature) else { return false }
            // The message form hashes with SHA-256 inside swift-crypto, specialized there.
            return key.isValidSignature(parsed, for: input)
        case .p384(let key):
            guard let parsed = try? P384.Signing.ECDSASignature(rawRepresentation: signature) else { return false }
            return key.isValidSignature(parsed, for: Self.digest(SHA384.self, input))
        case .p521(let key):
            guard let parsed = try? P521.Signing.ECDSASignature(rawRepresentation: signature) else { return false }
            return key.isValidSignature(parsed, for: Self.digest(SHA512.self, input))
        case .ed25519(let key):
            return key.isValidSignature(signature, for: input)
        }
    }

    /// The hash of the signing input, fed to the hasher as one buffer.
    private static func digest<H: HashFunction>(_ function: H.Type, _ input: UnsafeRawBufferPointer) -> H.Digest {
        var hasher = H()
        hasher.update(bufferPointer: input)
        return hasher.finalize()
    }

    private static func rsa(
        _ key: _RSA.Signing.PublicKey, _ signature: [UInt8], _ input: UnsafeRawBufferPointer, _ digest: DigestKind,
        padding: _RSA.Signing.Padding
    ) -> Bool {
        let parsed = _RSA.Signing.RSASignature(rawRepresentation: signature)
        switch digest {
        // The message form hashes with SHA-256 inside swift-crypto, where the digest type is
        // known at compile time; passing a digest from here costs a runtime type lookup per call
        // (about a quarter of an RS256 verification on this machine).
        case .sha256: return key.isValidSignature(parsed, for: input, padding: padding)
        case .sha384: return key.isValidSignature(parsed, for: Self.digest(SHA384.self, input), padding: padding)
        case .sha512: return key.isValidSignature(parsed, for: Self.digest(SHA512.self, input), padding: padding)
        }
    }
}

extension SignatureVerifier {
    /// The verifier for a JWK's public members and one algorithm its type allows, or `nil` when
    /// the members do not form a valid key (wrong lengths, a point off the curve, an RSA modulus
    /// swift-crypto refuses: under 2048 bits). Private members are never read.
    static func make(alg: String, n: [UInt8]?, e: [UInt8]?, x: [UInt8]?, y: [UInt8]?) -> SignatureVerifier? {
        switch alg {
        case "RS256", "RS384", "RS512", "PS256", "PS384", "PS512":
            guard let n, let e, let key = try? _RSA.Signing.PublicKey(n: n, e: e) else { return nil }
            let digest: DigestKind = alg.hasSuffix("256") ? .sha256 : alg.hasSuffix("384") ? .sha384 : .sha512
            return alg.hasPrefix("RS") ? .rsaPKCS1(key, digest) : .rsaPSS(key, digest)
        case "ES256":
            guard let x, let y, x.count == 32, y.count == 32,
                let key = try? P256.Signing.PublicKey(rawRepresentation: x + y)
            else { return nil }
            return .p256(key)
        case "ES384":
            guard let x, let y, x.count == 48, y.count == 48,
                let key = try? P384.Signing.PublicKey(rawRepresentation: x + y)
            else { return nil }
            return .p384(key)
        case "ES512":
            guard let x, let y, x.count == 66, y.count == 66,
                let key = try? P521.Signing.PublicKey(rawRepresentation: x + y)
            else { return nil }
            return .p521(key)
        case "EdDSA":
            guard let x, x.count == 32, let key = try? Curve25519.Signing.PublicKey(rawRepresentation: x) else { return nil }
            return .ed25519(key)
        default:
            return nil
        }
    }
}

import Crypto
import Foundation
import SesameProtocol
import SesameStore
import _CryptoExtras

/// WebAuthn §6.5.6 signature formats, verified with the credential public key:
/// - ES256: an ASN.1 DER `Ecdsa-Sig-Value` (not the raw r‖s of JWS), SHA-256;
/// - EdDSA: the 64 raw bytes of Ed25519;
/// - RS256: RSASSA-PKCS1-v1_5 with SHA-256.
package enum PasskeySignature {
    /// A key ready to verify (parsed once per ceremony).
    package enum VerifyingKey: Sendable {
        case p256(P256.Signing.PublicKey)
        case ed25519(Curve25519.Signing.PublicKey)
        case rsa(_RSA.Signing.PublicKey)

        package init(_ key: COSEKey) throws {
            switch key {
            case .es256(let x, let y): self = .p256(try P256.Signing.PublicKey(rawRepresentation: x + y))
            case .ed25519(let x): self = .ed25519(try Curve25519.Signing.PublicKey(rawRepresentation: x))
            case .rs256(let n, let e): self = .rsa(try _RSA.Signing.PublicKey(n: n, e: e))
            }
        }

        package func isValid(_ signature: Data, for data: Data) -> Bool {
            switch self {
            case .p256(let key):
                guard let signature = try? P256.Signing.ECDSASignature(derRepresentation: signature) else { return false }
                return key.isValidSignature(signature, for: data)
            case .ed25519(let key):
                return key.isValidSignature(signature, for: data)
            case .rsa(let key):
                return key.isValidSignature(
                    _RSA.Signing.RSASignature(rawRepresentation: signature), for: data, padding: .insecurePKCS1v1_5)
            }
        }
    }

    /// `signature` over `authenticatorData ‖ SHA-256(clientDataJSON)` (§7.2 step 21, and §8.2
    /// `packed` self attestation).
    package static func verify(_ signature: Data, key: COSEKey, authenticatorData: Data, clientDataHash: Data) -> Bool {
        guard let verifying = try? VerifyingKey(key) else { return false }
        return verifying.isValid(signature, for: authenticatorData + clientDataHash)
    }

    /// As above for a stored COSE_Key, parsed once and kept (``VerifyingKeyCache``); `nil` when
    /// the stored bytes are not a supported key.
    package static func verify(_ signature: Data, storedKey: Data, authenticatorData: Data, clientDataHash: Data) -> Bool? {
        guard let verifying = VerifyingKeyCache.shared.key(for: storedKey) else { return nil }
        return verifying.isValid(signature, for: authenticatorData + clientDataHash)
    }
}

/// Parsed credential public keys by their COSE bytes: a passkey used again skips the CBOR and
/// curve-point work. Bounded (the oldest half is dropped when full); keys are public, so
/// keeping them in memory risks nothing.
final package class VerifyingKeyCache: Sendable {
    package static let shared = VerifyingKeyCache(capacity: 4096)

    private let capacity: Int
    private let entries = LockedState<(keys: [Data: PasskeySignature.VerifyingKey], order: [Data])>(([:], []))

    package init(capacity: Int) {
        self.capacity = capacity
    }

    package func key(for cose: Data) -> PasskeySignature.VerifyingKey? {
        if let cached = entries.withLock({ $0.keys[cose] }) { return cached }
        guard let parsed = try? COSEKey(CBORDecoder().decode(cose)), let key = try? PasskeySignature.VerifyingKey(parsed)
        else { return nil }
        entries.withLock { state in
            if state.keys.count >= capacity {
                let dropped = state.order.prefix(capacity / 2)
                for old in dropped { state.keys[old] = nil }
                state.order.removeFirst(dropped.count)
            }
            if state.keys.updateValue(key, forKey: cose) == nil { state.order.append(cose) }
        }
        return key
    }
}

import SesameStore
import Crypto
import Foundation

/// Seals private keys at rest with the data directory's master key (secrets at rest are
/// encrypted): AES-256-GCM (NIST SP 800-38D), the key id bound as additional authenticated data
/// so a sealed key cannot be swapped onto another record. Output: base64 of nonce‖ciphertext‖tag.
public struct KeySealer: Sendable {
    private let masterKey: SymmetricKey

    public init(masterKey: SymmetricKey) {
        self.masterKey = masterKey
    }

    public func seal(_ plaintext: String, kid: String) throws -> String {
        let box = try AES.GCM.seal(
            Data(plaintext.utf8), using: masterKey, authenticating: Data(kid.utf8))
        guard let combined = box.combined else {
            throw KeyRingError.unreadableKey(kid: kid, reason: "AES-GCM produced no output")
        }
        return combined.base64EncodedString()
    }

    public func open(_ sealed: String, kid: String) throws -> String {
        guard let combined = Data(base64Encoded: sealed) else {
            throw KeyRingError.unreadableKey(kid: kid, reason: "the sealed key is not base64")
        }
        do {
            let box = try AES.GCM.SealedBox(combined: combined)
            let plaintext = try AES.GCM.open(box, using: masterKey, authenticating: Data(kid.utf8))
            return String(decoding: plaintext, as: UTF8.self)
        } catch {
            throw KeyRingError.unreadableKey(
                kid: kid, reason: "it does not decrypt with this master key")
        }
    }
}

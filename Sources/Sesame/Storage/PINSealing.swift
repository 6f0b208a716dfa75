import Crypto
import Foundation
import SesameProtocol
import _CryptoExtras

/// A 32-byte key sealed under a PIN, the one way the SDK keeps a key that a PIN unlocks (the
/// PIN-device key, docs/pin-devices.md; the software passkey's key, docs/passkeys.md):
/// `sealed = key XOR scrypt(PIN, salt)` (RFC 7914). **Nothing stored tells a right PIN from a
/// wrong one**: no tag, no checksum, no hash of the PIN and no public key, so every PIN opens
/// the record to 32 bytes that look exactly as valid as the right ones. Only the server, which
/// knows the public key, can tell: a wrong PIN makes a signature it refuses and counts.
enum PINSealing {
    static let keyLength = 32
    static let saltLength = 16

    /// Why a sealed record could not be used.
    enum Failure: Error, Sendable, Equatable {
        /// Salt or sealed key missing or of the wrong length.
        case damaged
        /// The stored scrypt parameters are outside what a device may be asked to spend.
        case parametersOutOfRange
        case kdf(String)
    }

    /// Seals `key` under `pin` with a fresh salt: (salt, sealed key), both base64url.
    static func seal(_ key: [UInt8], pin: String, kdf: PINKeyDerivation) throws(Failure) -> (salt: String, sealed: String) {
        guard key.count == keyLength else { throw .damaged }
        let salt = SecureRandom.bytes(saltLength)
        let pad = try derive(pin: pin, salt: salt, kdf: kdf)
        return (Base64URL.encode(salt), Base64URL.encode(zip(key, pad).map { $0 ^ $1 }))
    }

    /// The key `sealed` holds under `pin`. Any PIN gives 32 bytes; only the server can tell
    /// whether they are the right ones.
    static func open(sealed: String, salt: String, pin: String, kdf: PINKeyDerivation) throws(Failure) -> [UInt8] {
        guard let salt = Base64URL.decode(salt), salt.count == saltLength, let sealed = Base64URL.decode(sealed),
            sealed.count == keyLength
        else { throw .damaged }
        let pad = try derive(pin: pin, salt: Array(salt), kdf: kdf)
        return zip(sealed, pad).map { $0 ^ $1 }
    }

    /// scrypt(PIN, salt) with the record's parameters, refused above 2^22 rounds, r = 32 or
    /// p = 4 (a damaged record cannot make the app spend gigabytes of memory).
    private static func derive(pin: String, salt: [UInt8], kdf: PINKeyDerivation) throws(Failure) -> [UInt8] {
        guard (1...22).contains(kdf.logN), (1...32).contains(kdf.r), (1...4).contains(kdf.p) else {
            throw .parametersOutOfRange
        }
        do {
            let key = try KDF.Scrypt.deriveKey(
                from: Array(pin.utf8), salt: salt, outputByteCount: keyLength, rounds: 1 << kdf.logN, blockSize: kdf.r,
                parallelism: kdf.p)
            return key.withUnsafeBytes { Array($0) }
        } catch {
            throw .kdf("\(error)")
        }
    }
}

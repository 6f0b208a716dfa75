import Crypto
import Foundation

/// Cryptographically secure random values from swift-crypto's CSPRNG (BoringSSL `RAND_bytes`
/// on Linux, seeded from `getrandom`; the system generator on Apple platforms), one call per
/// value. RFC 6749 §10.10: tokens must not be guessable; RFC 4086 §6.2.
package enum SecureRandom {
    /// `count` random bytes.
    package static func bytes(_ count: Int) -> [UInt8] {
        precondition(count >= 0, "a negative byte count")
        guard count > 0 else { return [] }
        // A key of `count` bytes is `count` bytes from the CSPRNG in one request, instead of a
        // system call per byte or per word.
        return SymmetricKey(size: SymmetricKeySize(bitCount: count * 8)).withUnsafeBytes { Array($0) }
    }

    /// A random token of `byteCount` bytes (default 32 = 256 bits), base64url without padding.
    /// Used for codes, refresh tokens, `state`, `nonce`, CSRF tokens and client secrets.
    package static func token(byteCount: Int = 32) -> String {
        Base64URL.encode(bytes(byteCount))
    }
}

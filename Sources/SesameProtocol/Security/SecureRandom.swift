import Crypto
import Foundation

/// Cryptographically secure random values from the kernel's generator. RFC 6749 §10.10: tokens
/// must not be guessable; RFC 4086 §6.2.
///
/// On glibc, one `getrandom(2)` call a value (``KernelRandom``): swift-crypto's
/// `SymmetricKey(size:)`, used before, draws from the standard library's
/// `SystemRandomNumberGenerator`, one system call per 8 bytes, so 4 for a 32-byte token and 2
/// for a UUID (seen with `strace -k`; a refresh made 8 of them, issue #50). Elsewhere, and where
/// glibc lacks `getrandom` (before 2.25), through `SymmetricKey(size:)` as before:
/// `arc4random_buf` on Apple platforms.
package enum SecureRandom {
    /// `count` random bytes.
    package static func bytes(_ count: Int) -> [UInt8] {
        precondition(count >= 0, "a negative byte count")
        guard count > 0 else { return [] }
        if let bytes = KernelRandom.bytes(count) { return bytes }
        // A key of `count` bytes is `count` bytes from the generator, a word at a time.
        return SymmetricKey(size: SymmetricKeySize(bitCount: count * 8)).withUnsafeBytes { Array($0) }
    }

    /// A random token of `byteCount` bytes (default 32 = 256 bits), base64url without padding.
    /// Used for codes, refresh tokens, `state`, `nonce`, CSRF tokens and client secrets.
    package static func token(byteCount: Int = 32) -> String {
        Base64URL.encode(bytes(byteCount))
    }

    /// A random (version 4, RFC 9562 §5.4) UUID in lower case, from the same generator:
    /// Foundation's `UUID()` on Linux opens, reads and closes `/dev/urandom` on every call, three
    /// system calls an error answer, an audit record or a token family should not cost (issue #50).
    package static func uuid() -> String {
        var random = self.bytes(16)
        random[6] = (random[6] & 0x0F) | 0x40
        random[8] = (random[8] & 0x3F) | 0x80
        // 8-4-4-4-12 lowercase hex digits written into one buffer (issue #50: a string per byte
        // and two joins cost an error answer about 5 µs, more than the rest of its JSON).
        let digits: StaticString = "0123456789abcdef"
        return String(unsafeUninitializedCapacity: 36) { text in
            digits.withUTF8Buffer { digits in
                var index = 0
                for (position, byte) in random.enumerated() {
                    if position == 4 || position == 6 || position == 8 || position == 10 {
                        text[index] = UInt8(ascii: "-")
                        index += 1
                    }
                    text[index] = digits[Int(byte >> 4)]
                    text[index + 1] = digits[Int(byte & 0x0F)]
                    index += 2
                }
                return index
            }
        }
    }
}

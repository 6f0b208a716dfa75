import Crypto
import Foundation

/// Cryptographically secure random values through swift-crypto's `SymmetricKey(size:)`, which
/// draws from the standard library's `SystemRandomNumberGenerator`: the kernel's generator
/// (`getrandom(2)`, one system call per 8 bytes, so 2 for a UUID and 4 for a 32-byte token; seen
/// with `strace -k`) on Linux, `arc4random_buf` on Apple platforms. RFC 6749 §10.10: tokens must
/// not be guessable; RFC 4086 §6.2.
package enum SecureRandom {
    /// `count` random bytes.
    package static func bytes(_ count: Int) -> [UInt8] {
        precondition(count >= 0, "a negative byte count")
        guard count > 0 else { return [] }
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
        var bytes = self.bytes(16)
        bytes[6] = (bytes[6] & 0x0F) | 0x40
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        let hex = bytes.map { byte -> String in
            let text = String(byte, radix: 16)
            return byte < 16 ? "0" + text : text
        }
        return [hex[0..<4], hex[4..<6], hex[6..<8], hex[8..<10], hex[10..<16]].map { $0.joined() }.joined(separator: "-")
    }
}

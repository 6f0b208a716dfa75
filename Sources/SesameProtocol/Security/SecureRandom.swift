import Foundation

/// Cryptographically secure random values. `SystemRandomNumberGenerator` reads the
/// operating system's CSPRNG (`getrandom` on Linux, `arc4random` on Apple platforms).
public enum SecureRandom {
    /// `count` random bytes.
    public static func bytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }

    /// A random token of `byteCount` bytes (default 32 = 256 bits), base64url without padding.
    /// Used for codes, refresh tokens, `state`, `nonce`, CSRF tokens and client secrets.
    public static func token(byteCount: Int = 32) -> String {
        Base64URL.encode(bytes(byteCount))
    }
}

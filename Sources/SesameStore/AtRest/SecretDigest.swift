import Crypto
import Foundation
import SesameProtocol

/// Digests of high-entropy secrets (authorization codes, refresh tokens, session ids, device
/// secrets) for storage: SHA-256, base64url. These values carry ≥ 256 bits of randomness, so a
/// fast hash is enough (RFC 9700 / OWASP); passwords and client secrets use ``PasswordHasher``.
public enum SecretDigest {
    public static func of(_ secret: String) -> String {
        Base64URL.sha256(of: secret)
    }

    /// Constant-time check of a presented secret against a stored digest.
    public static func matches(_ secret: String, digest: String) -> Bool {
        ConstantTime.equals(of(secret), digest)
    }
}

import SesameProtocol
import SesameStore

/// A client secret the server makes (RFC 6749 §2.3.1): 32 random bytes, base64url, shown once
/// and stored as the SHA-256 of its text, `$sha256$<base64url digest>`.
///
/// A memory-hard hash (``ScryptPasswordHasher``) protects secrets a person chose, which a
/// guesser can enumerate; a 256-bit random value cannot be enumerated, so one SHA-256 is enough
/// (NIST SP 800-63B §5.1.1.2 asks for a slow hash only for memorized secrets), as
/// ``SecretDigest`` stores codes, refresh tokens and session ids. It spares the token endpoint a
/// 32 MiB scrypt per client and process (issue #50). Secrets an operator writes in a seed file
/// keep the memory-hard hash: they may be guessable.
package enum GeneratedClientSecret {
    /// The prefix that marks a stored secret hash as this format.
    package static let prefix = "$sha256$"

    /// A new secret and the value to store for it.
    package static func make() -> (secret: String, storedHash: String) {
        let secret = SecureRandom.token(byteCount: 32)
        return (secret, storedHash(of: secret))
    }

    /// The value stored for `secret`.
    package static func storedHash(of secret: String) -> String {
        prefix + SecretDigest.of(secret)
    }

    /// `true` when `storedHash` is this format (and not a PHC hash of a chosen secret).
    package static func isStored(_ storedHash: String) -> Bool {
        storedHash.hasPrefix(prefix)
    }

    /// Constant-time check of a presented secret whose SHA-256 is `digest` against a stored
    /// value of this format.
    package static func matches(digest: String, storedHash: String) -> Bool {
        ConstantTime.equals(prefix + digest, storedHash)
    }
}

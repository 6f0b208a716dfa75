import Crypto
import Foundation
import SesameProtocol
import SesameStore

/// The Native SSO `device_secret` (draft 07 §3.2) and its `ds_hash` (§3.4.1).
///
/// - The secret is 256 random bits, base64url: opaque to every client, and it carries nothing
///   itself; the server keeps the session state and stores only ``SecretDigest`` of it (§6.1).
/// - `ds_hash` is computed like `at_hash` (OIDC Core §3.1.3.6): base64url of the left half of
///   SHA-256 of the ASCII secret. It binds the ID token to the secret and, being one-way, gives
///   an attacker who holds the ID token nothing (§3.4.1).
package enum DeviceSecret {
    package static func new() -> (secret: String, digest: String) {
        let secret = SecureRandom.token()
        return (secret, SecretDigest.of(secret))
    }

    package static func hash(_ secret: String) -> String {
        Base64URL.sha256(of: secret, prefix: SHA256.byteCount / 2)
    }
}

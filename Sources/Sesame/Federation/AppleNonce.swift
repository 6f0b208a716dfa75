import Crypto
import Foundation

/// Sign in with Apple's nonce rule (docs/federation.md): the request carries SHA-256 of the
/// app's nonce as lowercase hex, and the ID token's `nonce` claim is that hash; the app sends
/// its raw nonce to Sesame, which hashes it again to compare. Shared by the Apple adapter and
/// its tests on Linux.
public enum AppleNonce {
    /// SHA-256 of `raw` as lowercase hex: the `nonce` to put in Apple's request, and the value its
    /// ID token's `nonce` claim must carry. Sesame gets the raw nonce.
    public static func hashed(_ raw: String) -> String {
        SHA256.hash(data: Data(raw.utf8)).map { String(format: "%02x", $0) }.joined()
    }
}

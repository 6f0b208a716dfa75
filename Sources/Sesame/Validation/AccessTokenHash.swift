import Crypto
import Foundation
import SesameProtocol

/// `at_hash` (OIDC Core §3.1.3.6 / §3.2.2.9): base64url of the left-most half of the hash of
/// the ASCII access token, using the hash of the ID token's `alg` (SHA-512 for EdDSA/Ed25519).
enum AccessTokenHash {
    /// The expected `at_hash` for `accessToken` under `alg`, or `nil` for an unknown `alg`.
    static func compute(accessToken: String, alg: String) -> String? {
        let data = Data(accessToken.utf8)
        let digest: [UInt8]
        switch alg {
        case "RS256", "ES256", "PS256", "HS256": digest = Array(SHA256.hash(data: data))
        case "RS384", "ES384", "PS384", "HS384": digest = Array(SHA384.hash(data: data))
        case "RS512", "ES512", "PS512", "HS512", "EdDSA", "Ed25519":
            digest = Array(SHA512.hash(data: data))
        default: return nil
        }
        return Base64URL.encode(digest.prefix(digest.count / 2))
    }
}

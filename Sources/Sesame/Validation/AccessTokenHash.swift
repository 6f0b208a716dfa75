import Crypto
import Foundation
import SesameProtocol

/// `at_hash` (OIDC Core §3.1.3.6 / §3.2.2.9): base64url of the left-most half of the hash of
/// the ASCII access token, using the hash of the ID token's `alg` (SHA-512 for EdDSA/Ed25519).
enum AccessTokenHash {
    /// The expected `at_hash` for `accessToken` under `alg`, or `nil` for an unknown `alg`.
    static func compute(accessToken: String, alg: String) -> String? {
        var token = accessToken
        return token.withUTF8 { bytes -> String? in
            let input = UnsafeRawBufferPointer(bytes)
            switch alg {
            case "RS256", "ES256", "PS256", "HS256": return leftHalf(of: SHA256.hash(data: input))
            case "RS384", "ES384", "PS384", "HS384": return leftHalf(of: SHA384.hash(data: input))
            case "RS512", "ES512", "PS512", "HS512", "EdDSA", "Ed25519":
                return leftHalf(of: SHA512.hash(data: input))
            default: return nil
            }
        }
    }

    private static func leftHalf(of digest: some Digest) -> String {
        digest.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            return Base64URL.encode(buffer: UnsafeBufferPointer(rebasing: bytes.prefix(bytes.count / 2)))
        }
    }
}

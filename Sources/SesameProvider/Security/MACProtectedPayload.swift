import SesameStore
import Crypto
import Foundation
import SesameProtocol

/// A small JSON payload the server hands out and must get back unaltered, without keeping state:
/// `base64url(JSON) "." base64url(HMAC-SHA-256(key, first part))`. The key is derived from the
/// deployment's master key with HKDF (RFC 5869) and a purpose label, so every process of a
/// deployment accepts what any of them issued, and one purpose's tokens are never valid for
/// another. The abuse challenges (``ChallengeToken``) and the PIN unlock nonces
/// (``PINNonceIssuer``) are such tokens.
package struct MACProtectedPayload: Sendable {
    /// Why a token could not be opened.
    package enum Failure: Error, Sendable {
        /// Not two base64url parts, or the payload is not the expected JSON.
        case malformed
        /// The MAC does not match: altered or made up.
        case forged
    }

    private let key: SymmetricKey

    /// The codec for `purpose` (the HKDF info, e.g. `sesame pin nonce mac v1`).
    package init(masterKey: SymmetricKey, purpose: String) {
        key = HKDF<SHA256>.deriveKey(inputKeyMaterial: masterKey, info: Data(purpose.utf8), outputByteCount: 32)
    }

    package func seal(_ payload: some Encodable) -> String {
        let first = Base64URL.encode((try? JSONEncoder().encode(payload)) ?? Data())
        let mac = HMAC<SHA256>.authenticationCode(for: Data(first.utf8), using: key)
        return first + "." + Base64URL.encode(Data(mac))
    }

    /// The payload of `token` once its MAC holds (checked in constant time, before the JSON is
    /// read).
    package func open<Payload: Decodable>(_ token: String, as type: Payload.Type) -> Result<Payload, Failure> {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, let mac = Base64URL.decode(String(parts[1])),
            let json = Base64URL.decode(String(parts[0]))
        else { return .failure(.malformed) }
        guard HMAC<SHA256>.isValidAuthenticationCode(mac, authenticating: Data(parts[0].utf8), using: key) else {
            return .failure(.forged)
        }
        guard let payload = try? JSONDecoder().decode(Payload.self, from: json) else { return .failure(.malformed) }
        return .success(payload)
    }
}

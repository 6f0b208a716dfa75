import Crypto
import Foundation
import SesameProtocol

/// Server-provided DPoP nonces (RFC 9449 §8): stateless, an expiry and random bits in a
/// ``MACProtectedPayload``, so every process of a deployment accepts the nonces any of them
/// issued. A nonce may be used by many proofs until it expires (§8.2); each proof is still seen
/// once (``DPoPProofCheck``).
package struct DPoPNonces: Sendable {
    private struct Payload: Codable {
        var e: Int
        var r: String
    }

    private let codec: MACProtectedPayload
    package let lifetime: TimeInterval
    package let now: @Sendable () -> Date

    package init(masterKey: SymmetricKey, lifetime: TimeInterval, now: @escaping @Sendable () -> Date) {
        codec = MACProtectedPayload(masterKey: masterKey, purpose: "sesame dpop nonce mac v1")
        self.lifetime = max(1, lifetime)
        self.now = now
    }

    /// A fresh nonce for the `DPoP-Nonce` header.
    package func issue() -> String {
        let expiry = Int(now().timeIntervalSince1970 + lifetime)
        return codec.seal(Payload(e: expiry, r: Base64URL.encode(SecureRandom.bytes(8))))
    }

    /// Whether `nonce` was issued by this deployment and has not expired.
    package func accepts(_ nonce: String) -> Bool {
        guard nonce.utf8.count <= 256, case .success(let payload) = codec.open(nonce, as: Payload.self) else {
            return false
        }
        return Double(payload.e) > now().timeIntervalSince1970
    }
}

import SesameStore
import Crypto
import Foundation
import SesameProtocol

/// Single-use nonces for PIN unlock (docs/pin-devices.md): a device asks for one, signs it with
/// its PIN-sealed key, and redeems it at `/token`. Issuing is stateless — the registration, the
/// expiry and 128 random bits in a ``MACProtectedPayload``, so any process accepts what another
/// issued — and redeeming is once per nonce across processes (``ChallengeRedemptionStore``).
package struct PINNonceIssuer: Sendable {
    /// Why a nonce is refused (none of them counts as a wrong PIN).
    package enum Refusal: String, Sendable {
        case malformed, forged, expired
        case otherRegistration = "other_registration"
        case reused
    }

    private struct Payload: Codable {
        var r: String
        var e: Int
        var i: String
    }

    private let codec: MACProtectedPayload
    package let redemptions: any ChallengeRedemptionStore
    package let now: @Sendable () -> Date
    /// Seconds a nonce can be redeemed. Default 60.
    package var lifetime = 60

    package init(masterKey: SymmetricKey, redemptions: any ChallengeRedemptionStore, now: @escaping @Sendable () -> Date) {
        codec = MACProtectedPayload(masterKey: masterKey, purpose: "sesame pin nonce mac v1")
        self.redemptions = redemptions
        self.now = now
    }

    package func issue(registrationID: String) -> PINNonce {
        let payload = Payload(
            r: registrationID, e: Int(now().timeIntervalSince1970) + lifetime, i: Base64URL.encode(SecureRandom.bytes(16)))
        return PINNonce(nonce: codec.seal(payload), expiresIn: lifetime)
    }

    /// Redeems `nonce` for `registrationID`: `nil` when it is good (and now used up).
    package func redeem(_ nonce: String, registrationID: String) async throws -> Refusal? {
        guard nonce.utf8.count <= 512 else { return .malformed }
        let payload: Payload
        switch codec.open(nonce, as: Payload.self) {
        case .failure(.malformed): return .malformed
        case .failure(.forged): return .forged
        case .success(let opened): payload = opened
        }
        guard Double(payload.e) > now().timeIntervalSince1970 else { return .expired }
        guard ConstantTime.equals(payload.r, registrationID) else { return .otherRegistration }
        let expiry = Date(timeIntervalSince1970: Double(payload.e))
        guard try await redemptions.redeemChallenge(id: "pin:" + payload.i, expiresAt: expiry) else { return .reused }
        return nil
    }
}

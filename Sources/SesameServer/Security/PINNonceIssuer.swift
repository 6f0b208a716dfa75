import Crypto
import Foundation
import SesameProtocol

/// Single-use nonces for PIN unlock (docs/pin-devices.md): a device asks for one, signs it with
/// its PIN-sealed key, and redeems it at `/token`. Issuing is stateless —
/// `base64url(JSON {r: registration, e: expiry, i: 128 random bits}) "." base64url(HMAC-SHA-256)`
/// with a key derived from the master key (HKDF), so any process accepts what another issued —
/// and redeeming is once per nonce across processes (``ChallengeRedemptionStore``).
struct PINNonceIssuer: Sendable {
    /// Why a nonce is refused (none of them counts as a wrong PIN).
    enum Refusal: String, Sendable {
        case malformed, forged, expired
        case otherRegistration = "other_registration"
        case reused
    }

    private struct Payload: Codable {
        var r: String
        var e: Int
        var i: String
    }

    let key: SymmetricKey
    let redemptions: any ChallengeRedemptionStore
    let now: @Sendable () -> Date
    /// Seconds a nonce can be redeemed. Default 60.
    var lifetime = 60

    init(masterKey: SymmetricKey, redemptions: any ChallengeRedemptionStore, now: @escaping @Sendable () -> Date) {
        key = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: masterKey, info: Data("sesame pin nonce mac v1".utf8), outputByteCount: 32)
        self.redemptions = redemptions
        self.now = now
    }

    func issue(registrationID: String) -> PINNonce {
        let payload = Payload(
            r: registrationID, e: Int(now().timeIntervalSince1970) + lifetime, i: Base64URL.encode(SecureRandom.bytes(16)))
        let first = Base64URL.encode((try? JSONEncoder().encode(payload)) ?? Data())
        let mac = HMAC<SHA256>.authenticationCode(for: Data(first.utf8), using: key)
        return PINNonce(nonce: first + "." + Base64URL.encode(Data(mac)), expiresIn: lifetime)
    }

    /// Redeems `nonce` for `registrationID`: `nil` when it is good (and now used up).
    func redeem(_ nonce: String, registrationID: String) async throws -> Refusal? {
        let parts = nonce.split(separator: ".", omittingEmptySubsequences: false)
        guard nonce.utf8.count <= 512, parts.count == 2, let mac = Base64URL.decode(String(parts[1])),
            let json = Base64URL.decode(String(parts[0]))
        else { return .malformed }
        guard HMAC<SHA256>.isValidAuthenticationCode(mac, authenticating: Data(parts[0].utf8), using: key) else {
            return .forged
        }
        guard let payload = try? JSONDecoder().decode(Payload.self, from: json) else { return .malformed }
        guard Double(payload.e) > now().timeIntervalSince1970 else { return .expired }
        guard ConstantTime.equals(payload.r, registrationID) else { return .otherRegistration }
        let expiry = Date(timeIntervalSince1970: Double(payload.e))
        guard try await redemptions.redeemChallenge(id: "pin:" + payload.i, expiresAt: expiry) else { return .reused }
        return nil
    }
}

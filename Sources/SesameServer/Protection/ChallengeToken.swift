import Crypto
import Foundation
import SesameProtocol

/// The opaque `token` of a ``ProofOfWorkChallenge``: the challenge's facts, MAC-protected so
/// that issuing one needs no state (docs/abuse-protection.md):
/// `base64url(JSON payload) "." base64url(HMAC-SHA-256(key, first part))`. The key is derived
/// from the deployment's master key (HKDF-SHA-256, RFC 5869), so every process accepts what
/// any process issued. What the MAC protects: the identifier (for single use), the kind, seed,
/// difficulty and expiry, and the digest of the request the challenge was issued for.
struct ChallengeToken: Sendable, Equatable {
    /// 128 random bits: the single-use key.
    var id: String
    var kind: ProofOfWorkChallenge.Kind
    var seed: String
    var difficulty: Int
    var expiresAt: Int
    /// SHA-256 of what the request was for (``ChallengeGate/binding(_:subject:clientID:)``),
    /// base64url; a solution presented with another request is refused.
    var binding: String

    private struct Payload: Codable {
        var i: String
        var k: ProofOfWorkChallenge.Kind
        var s: String
        var d: Int
        var e: Int
        var b: String
    }

    /// Why a presented token is refused.
    enum Refusal: String, Error, Sendable {
        /// Not two base64url parts, or the payload is not ours.
        case malformed
        /// The MAC does not match: altered or made up.
        case forged
        case expired
        /// Issued for another endpoint, login name, address or client.
        case otherRequest = "other_request"
        /// The nonce does not give enough leading zero bits.
        case wrongNonce = "wrong_nonce"
        /// Redeemed before.
        case reused
    }

    /// The MAC key for challenge tokens, derived from the master key.
    static func macKey(masterKey: SymmetricKey) -> SymmetricKey {
        HKDF<SHA256>.deriveKey(
            inputKeyMaterial: masterKey, info: Data("sesame challenge token mac v1".utf8), outputByteCount: 32)
    }

    func encoded(key: SymmetricKey) -> String {
        let payload = Payload(i: id, k: kind, s: seed, d: difficulty, e: expiresAt, b: binding)
        let json = (try? JSONEncoder().encode(payload)) ?? Data()
        let first = Base64URL.encode(json)
        let mac = HMAC<SHA256>.authenticationCode(for: Data(first.utf8), using: key)
        return first + "." + Base64URL.encode(Data(mac))
    }

    /// Decodes and authenticates `token` (constant-time MAC check); the expiry and the binding
    /// are the caller's to check.
    static func decode(_ token: String, key: SymmetricKey) -> Result<ChallengeToken, Refusal> {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, let mac = Base64URL.decode(String(parts[1])),
            let json = Base64URL.decode(String(parts[0]))
        else { return .failure(.malformed) }
        guard HMAC<SHA256>.isValidAuthenticationCode(mac, authenticating: Data(parts[0].utf8), using: key) else {
            return .failure(.forged)
        }
        guard let payload = try? JSONDecoder().decode(Payload.self, from: json) else { return .failure(.malformed) }
        return .success(
            ChallengeToken(
                id: payload.i, kind: payload.k, seed: payload.s, difficulty: payload.d, expiresAt: payload.e,
                binding: payload.b))
    }
}

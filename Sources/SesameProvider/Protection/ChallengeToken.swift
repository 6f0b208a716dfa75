import Crypto
import Foundation
import SesameProtocol
import SesameStore

/// The opaque `token` of a ``ProofOfWorkChallenge``: the challenge's facts in a
/// ``MACProtectedPayload``, so that issuing one needs no state and every process accepts what any
/// process issued (docs/abuse-protection.md). What the MAC protects: the identifier (for single use), the kind, seed,
/// difficulty and expiry, and the digest of the request the challenge was issued for.
package struct ChallengeToken: Sendable, Equatable {
    /// 128 random bits: the single-use key.
    package var id: String
    package var kind: ProofOfWorkChallenge.Kind
    package var seed: String
    package var difficulty: Int
    package var expiresAt: Int
    /// SHA-256 of what the request was for (``ChallengeGate/binding(_:surface:subject:clientID:)``),
    /// base64url; a solution presented with another request is refused.
    package var binding: String

    package init(
        id: String,
        kind: ProofOfWorkChallenge.Kind,
        seed: String,
        difficulty: Int,
        expiresAt: Int,
        binding: String
    ) {
        self.id = id
        self.kind = kind
        self.seed = seed
        self.difficulty = difficulty
        self.expiresAt = expiresAt
        self.binding = binding
    }

    private struct Payload: Codable {
        var i: String
        var k: ProofOfWorkChallenge.Kind
        var s: String
        var d: Int
        var e: Int
        var b: String
    }

    /// Why a presented token is refused.
    package enum Refusal: String, Error, Sendable {
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

    /// The codec of challenge tokens (its HKDF purpose label).
    package static func codec(masterKey: SymmetricKey) -> MACProtectedPayload {
        MACProtectedPayload(masterKey: masterKey, purpose: "sesame challenge token mac v1")
    }

    package func encoded(with codec: MACProtectedPayload) -> String {
        codec.seal(Payload(i: id, k: kind, s: seed, d: difficulty, e: expiresAt, b: binding))
    }

    /// Opens and authenticates `token`; the expiry and the binding are the caller's to check.
    package static func decode(_ token: String, with codec: MACProtectedPayload) -> Result<ChallengeToken, Refusal> {
        switch codec.open(token, as: Payload.self) {
        case .failure(.malformed): return .failure(.malformed)
        case .failure(.forged): return .failure(.forged)
        case .success(let payload):
            return .success(
                ChallengeToken(
                    id: payload.i, kind: payload.k, seed: payload.s, difficulty: payload.d, expiresAt: payload.e,
                    binding: payload.b))
        }
    }
}

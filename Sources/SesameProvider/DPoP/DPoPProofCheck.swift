import Crypto
import Foundation
import SesameJOSE
import SesameProtocol
import SesameStore

/// The authorization server's check of the `DPoP` headers of one request (RFC 9449 §4.3): the
/// stateless rules of ``DPoPProofVerifier``, then the server's nonce when required (§8) and the
/// `jti` seen once across processes (§11.1, ``DPoPProofStore``).
package struct DPoPProofCheck: Sendable {
    package let verifier: DPoPProofVerifier
    package let store: any DPoPProofStore
    /// Set when proofs must carry a nonce.
    package let nonces: DPoPNonces?
    package let now: @Sendable () -> Date

    package init(policy: DPoPPolicy, masterKey: SymmetricKey, store: any DPoPProofStore, now: @escaping @Sendable () -> Date) {
        verifier = DPoPProofVerifier(
            algorithms: Set(policy.algorithms), maximumAge: policy.proofMaximumAge,
            maximumFutureSkew: policy.proofMaximumFutureSkew)
        self.store = store
        nonces = policy.requireNonce ? DPoPNonces(masterKey: masterKey, lifetime: policy.nonceLifetime, now: now) : nil
        self.now = now
    }

    /// The verified proof of a request, or `nil` when it has no `DPoP` header.
    /// - Parameters:
    ///   - headers: every `DPoP` header value of the request (§4.3 item 1: at most one).
    ///   - accessToken: the access token presented with the proof, for `ath`.
    package func check(headers: [String], method: String, url: String, accessToken: String? = nil)
        async throws -> VerifiedDPoPProof?
    {
        guard let proof = headers.first else { return nil }
        guard headers.count == 1 else {
            throw DPoPFailure.invalidProof("Send exactly one DPoP header; this request has \(headers.count).")
        }
        let verified: VerifiedDPoPProof
        do {
            verified = try verifier.verify(proof, method: method, url: url, accessToken: accessToken, now: now())
        } catch {
            throw DPoPFailure.invalidProof("The DPoP proof was refused: \(error.reason).")
        }
        if let nonces {
            guard let nonce = verified.nonce else {
                throw DPoPFailure.useNonce("This server requires a nonce in DPoP proofs: sign the proof again with the nonce in the DPoP-Nonce header.", nonce: nonces.issue())
            }
            guard nonces.accepts(nonce) else {
                throw DPoPFailure.useNonce("The DPoP nonce is unknown or expired: sign the proof again with the nonce in the DPoP-Nonce header.", nonce: nonces.issue())
            }
        }
        let key = SecretDigest.of(verified.thumbprint + " " + verified.jti)
        let keep = verified.issuedAt.addingTimeInterval(verifier.maximumAge + 1)
        guard try await store.recordDPoPProof(digest: key, expiresAt: max(keep, now().addingTimeInterval(1))) else {
            throw DPoPFailure.invalidProof("This DPoP proof was used before (its jti was seen); sign a new proof for every request.")
        }
        return verified
    }

    /// A fresh nonce to send with a response, when nonces are required (§8.2).
    package func freshNonce() -> String? { nonces?.issue() }
}

/// A refused DPoP proof, for the token endpoint (400, RFC 9449 §5.1) or a resource (401 with
/// `WWW-Authenticate: DPoP`, §7.1).
package enum DPoPFailure: Error, Sendable, Equatable {
    /// `invalid_dpop_proof`: the proof is missing where required, malformed, refused by a rule of
    /// §4.3, replayed, or signed by another key than the one the grant is bound to.
    case invalidProof(String)
    /// `use_dpop_nonce` with the nonce to retry with (§8).
    case useNonce(String, nonce: String)

    /// The failure of the provider's logic, for the token endpoint's JSON body.
    package var providerFailure: ProviderFailure {
        switch self {
        case .invalidProof(let text): ProviderFailure(.dpopProofInvalid, text)
        case .useNonce(let text, _): ProviderFailure(.dpopNonceRequired, text)
        }
    }
}

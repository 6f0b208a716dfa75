import Foundation
import SesameJOSE
import SesameProtocol

/// A resource server's checks of DPoP proofs (RFC 9449 §7.1): exactly one `DPoP` header, every
/// rule of §4.3 (the verifier the authorization server uses: typ, asymmetric alg, the header's public key,
/// the signature, htm, htu, iat, ath), the key's thumbprint equal to the token's `cnf.jkt`, the
/// nonce this API issued when it asks for one (§9, ``DPoPResourceNonces``), and the proof seen
/// once (§11.1, a ``DPoPReplayStore`` the API's instances share).
public struct DPoPValidation: Sendable {
    /// The proof algorithms accepted, in the order of the `algs` challenge parameter.
    public static let defaultAlgorithms = DPoP.signingAlgorithms
    let verifier: DPoPProofVerifier
    /// Where the proofs seen are kept.
    public let replays: any DPoPReplayStore
    /// The nonces proofs must carry (§9); `nil`: none asked for.
    public let nonces: DPoPResourceNonces?

    /// - Parameters:
    ///   - maximumAge: how old a proof's `iat` may be, in seconds; its `jti` is kept this long.
    ///   - maximumFutureSkew: how far ahead of this server's clock `iat` may be.
    ///   - replays: where seen proofs are kept: one in-memory cache per process by default. An API
    ///     running as several instances behind one name shares one store (`SQLDPoPReplayStore`),
    ///     or a proof replayed to another instance is accepted there.
    ///   - nonces: server-provided nonces (§9) every proof must carry; `nil` (default): none.
    public init(
        maximumAge: TimeInterval = 300, maximumFutureSkew: TimeInterval = 60,
        replays: any DPoPReplayStore = DPoPReplayCache(), nonces: DPoPResourceNonces? = nil
    ) {
        verifier = DPoPProofVerifier(maximumAge: maximumAge, maximumFutureSkew: maximumFutureSkew)
        self.replays = replays
        self.nonces = nonces
    }

    /// Checks the proofs of a request presenting `accessToken`, bound to `thumbprint`.
    package func check(_ proofs: [String], method: String, url: String, accessToken: String, boundTo thumbprint: String, now: Date)
        async throws(AccessTokenError)
    {
        guard let proof = proofs.first else {
            throw Self.refusal(.dpopProof, "the token is bound to a DPoP key and the request has no DPoP proof")
        }
        guard proofs.count == 1 else { throw Self.refusal(.dpopProof, "the request has \(proofs.count) DPoP headers; send one") }
        let verified: VerifiedDPoPProof
        do {
            verified = try verifier.verify(proof, method: method, url: url, accessToken: accessToken, now: now)
        } catch {
            throw Self.refusal(.dpopProof, "the DPoP proof was refused: \(error.reason)")
        }
        guard ConstantTime.equals(verified.thumbprint, thumbprint) else {
            throw Self.refusal(.dpopProof, "the DPoP proof is signed by another key than the one the token is bound to")
        }
        // §9: a nonce of this API's, unexpired; otherwise the client is given one to sign with.
        if let nonces, !(verified.nonce.map { nonces.accepts($0, now: now) } ?? false) {
            var error = Self.refusal(
                .dpopNonce,
                verified.nonce == nil
                    ? "the DPoP proof carries no nonce; sign it again with the one in DPoP-Nonce"
                    : "the DPoP proof's nonce is not this API's or has expired; sign it again with the one in DPoP-Nonce")
            error.dpopNonce = nonces.issue(now: now)
            throw error
        }
        let key = verified.thumbprint + " " + verified.jti
        let expiry = max(verified.issuedAt, now).addingTimeInterval(verifier.maximumAge + 1)
        let first: Bool
        do {
            first = try await replays.record(key, until: expiry, now: now)
        } catch {
            throw Self.refusal(.replayCheckUnavailable, "the DPoP replay store could not be asked (\(error)); retry")
        }
        guard first else {
            throw Self.refusal(.dpopProof, "the DPoP proof was used before (its jti was seen); sign a new proof for every request")
        }
    }

    /// A refusal by `rule` (``AccessTokenRule/dpopProof`` or ``AccessTokenRule/dpopBinding``),
    /// answered with a `WWW-Authenticate: DPoP` challenge.
    static func refusal(_ rule: AccessTokenRule, _ message: String) -> AccessTokenError {
        var error = AccessTokenError(rule, message)
        error.scheme = DPoP.scheme
        return error
    }
}

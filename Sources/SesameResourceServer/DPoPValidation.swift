import Foundation
import SesameJOSE
import SesameProtocol

/// A resource server's checks of DPoP proofs (RFC 9449 §7.1): exactly one `DPoP` header, every
/// rule of §4.3 (the verifier the authorization server uses: typ, asymmetric alg, the header's public key,
/// the signature, htm, htu, iat, ath), the key's thumbprint equal to the token's `cnf.jkt`, and
/// the proof seen once (§11.1, ``DPoPReplayCache``).
///
/// Server-provided nonces at the resource (§9) are not issued by this library.
public struct DPoPValidation: Sendable {
    /// The proof algorithms accepted, in the order of the `algs` challenge parameter.
    public static let defaultAlgorithms = DPoP.signingAlgorithms
    let verifier: DPoPProofVerifier
    /// The proofs seen, for one API process.
    public let replays: DPoPReplayCache

    /// - Parameters:
    ///   - maximumAge: how old a proof's `iat` may be, in seconds; its `jti` is kept this long.
    ///   - maximumFutureSkew: how far ahead of this server's clock `iat` may be.
    ///   - replays: where seen proofs are kept; one cache per process by default. APIs running on
    ///     several processes behind one name should share one cache of their own design.
    public init(
        maximumAge: TimeInterval = 300, maximumFutureSkew: TimeInterval = 60,
        replays: DPoPReplayCache = DPoPReplayCache()
    ) {
        verifier = DPoPProofVerifier(maximumAge: maximumAge, maximumFutureSkew: maximumFutureSkew)
        self.replays = replays
    }

    /// Checks the proofs of a request presenting `accessToken`, bound to `thumbprint`.
    package func check(_ proofs: [String], method: String, url: String, accessToken: String, boundTo thumbprint: String, now: Date)
        throws(AccessTokenError)
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
        let key = verified.thumbprint + " " + verified.jti
        let expiry = max(verified.issuedAt, now).addingTimeInterval(verifier.maximumAge + 1)
        guard replays.record(key, until: expiry, now: now) else {
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

/// The DPoP proofs an API process has accepted (RFC 9449 §11.1), each kept until its `iat` is too
/// old to be accepted again: a replayed proof is refused. Bounded: at ``capacity`` live entries
/// new proofs are refused (fail closed) until older ones expire.
public final class DPoPReplayCache: Sendable {
    private let entries = LockedState<[String: Date]>([:])
    /// The most proofs kept at once.
    public let capacity: Int

    /// A cache of at most `capacity` proofs.
    public init(capacity: Int = 200_000) {
        self.capacity = max(1, capacity)
    }

    /// Records `key` until `expiry`; `false` when it was seen and has not expired, or the cache is
    /// full of live entries.
    func record(_ key: String, until expiry: Date, now: Date) -> Bool {
        entries.withLock { table in
            if let seen = table[key], seen > now { return false }
            if table.count >= capacity {
                table = table.filter { $0.value > now }
                guard table.count < capacity else { return false }
            }
            table[key] = expiry
            return true
        }
    }

    /// The number of proofs kept.
    public var count: Int { entries.withLock { $0.count } }
}

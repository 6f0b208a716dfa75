import Foundation

/// The DPoP proofs a server has accepted (RFC 9449 §11.1): each proof is accepted once, by any
/// process of the deployment, for as long as its `iat` would still be accepted.
public protocol DPoPProofStore: Sendable {
    /// Records a proof by the digest of its key thumbprint and `jti`; `true` the first time,
    /// `false` for a replay (decided by one insert, so two processes cannot both accept it).
    func recordDPoPProof(digest: String, expiresAt: Date) async throws -> Bool
}

import Foundation
import SQLKit

// DPoP proofs seen (RFC 9449 §11.1), table `used_dpop_proofs` (DPoPMigrations).
extension SQLIdentityStore: DPoPProofStore {
    public func recordDPoPProof(digest: String, expiresAt: Date) async throws -> Bool {
        try await database.raw(
            "INSERT INTO used_dpop_proofs (proof_digest, expires_at) VALUES (\(bind: digest), \(bind: StoreValue.time(expiresAt))) ON CONFLICT (proof_digest) DO NOTHING RETURNING proof_digest"
        ).first() != nil
    }

    func purgeDPoPProofs(now: Date) async throws {
        try await database.delete(from: "used_dpop_proofs").where("expires_at", .lessThanOrEqual, StoreValue.time(now)).run()
    }
}

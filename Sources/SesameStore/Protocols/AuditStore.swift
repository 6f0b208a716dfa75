import Foundation

/// The audit log: every security decision of every server process, in the shared store, read by
/// `sesame audit` and purged after the retention period.
public protocol AuditStore: Sendable {
    /// Appends records (one statement for the batch).
    func appendAuditRecords(_ records: [AuditRecord]) async throws
    /// The records that match `query`, oldest first (the newest `query.limit` of them).
    func auditRecords(_ query: AuditQuery) async throws -> [AuditRecord]
    /// Deletes the records older than `before`; returns how many.
    @discardableResult
    func purgeAuditRecords(before: Date) async throws -> Int
}

/// Single use of abuse challenges across every process of a deployment: a challenge's identifier
/// is remembered from its first redemption until it expires.
public protocol ChallengeRedemptionStore: Sendable {
    /// Records the redemption of `id`; `false` when it was redeemed before (a replay).
    func redeemChallenge(id: String, expiresAt: Date) async throws -> Bool
}

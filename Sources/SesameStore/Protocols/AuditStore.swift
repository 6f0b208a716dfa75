import Foundation

/// The audit log: every security decision of every server process, in the shared store, read by
/// `sesame audit` and purged after the retention period.
public protocol AuditStore: Sendable {
    /// Appends records (one statement for the batch).
    func appendAuditRecords(_ records: [AuditRecord]) async throws
    /// The records that match `query`, oldest first (the newest `query.limit` of them).
    func auditRecords(_ query: AuditQuery) async throws -> [AuditRecord]
    /// How many records of each of `events` (exact names) fall in each `bucket`-second interval
    /// from `since` on, and for each event by `reason`: the console's charts (issue #47), one
    /// grouped statement over the `(event, at)` index however many records there are.
    func auditEventCounts(events: [String], since: Date, bucket: TimeInterval) async throws -> [AuditEventCount]
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

/// A count of one event in one interval (``AuditStore/auditEventCounts(events:since:bucket:)``).
public struct AuditEventCount: Sendable, Equatable {
    public var event: String
    /// The interval: `since + bucket × index` up to the next.
    public var bucket: Int
    public var reason: String?
    public var count: Int

    public init(event: String, bucket: Int, reason: String?, count: Int) {
        self.event = event
        self.bucket = bucket
        self.reason = reason
        self.count = count
    }
}

import Foundation
import SQLKit

extension SQLIdentityStore: ChallengeRedemptionStore {
    /// One insert that does nothing on a conflict; a returned row means this was the first.
    public func redeemChallenge(id: String, expiresAt: Date) async throws -> Bool {
        let row = try await database.raw(
            """
            INSERT INTO redeemed_challenges (id, expires_at) VALUES (\(bind: id), \(bind: StoreValue.time(expiresAt)))
            ON CONFLICT (id) DO NOTHING
            RETURNING id
            """
        ).first()
        return row != nil
    }

    /// Redemptions whose challenge has expired (a replay of it is refused as expired anyway).
    func purgeRedeemedChallenges(now: Date) async throws {
        try await database.delete(from: "redeemed_challenges")
            .where("expires_at", .lessThan, StoreValue.time(now))
            .run()
    }
}

extension SQLIdentityStore: AuditStore {
    public func appendAuditRecords(_ records: [AuditRecord]) async throws {
        guard !records.isEmpty else { return }
        if records.count == 1, let record = records.first {
            // One event per request is the common case: one template.
            try await statement("audit_events.insert", try Self.auditValues(record)) { slots in
                database.insert(into: "audit_events").columns(Self.auditColumns).values(slots).query
            }.run()
            return
        }
        // Several hundred rows per statement at most (SQLite's bound-parameter limit is 32,766).
        for chunk in stride(from: 0, to: records.count, by: 500).map({ records[$0..<min($0 + 500, records.count)] }) {
            var insert = database.insert(into: "audit_events").columns(Self.auditColumns)
            for record in chunk {
                insert = insert.values(try Self.auditValues(record).map { SQLBind($0) })
            }
            try await insert.run()
        }
    }

    private static let auditColumns = [
        "id", "at", "event", "reason", "client_address", "client_id", "user_id", "request_id", "detail",
    ]

    /// One audit row's values, in ``auditColumns`` order.
    private static func auditValues(_ record: AuditRecord) throws -> [any Encodable & Sendable] {
        [
            record.id, StoreValue.time(record.time), record.event, record.reason, record.clientAddress,
            record.clientID, record.userID, record.requestID, try StoreValue.json(record.detail),
        ]
    }

    public func auditRecords(_ query: AuditQuery) async throws -> [AuditRecord] {
        var select = database.select().column("*").from("audit_events")
        if let userID = query.userID { select = select.where("user_id", .equal, userID) }
        if let since = query.since { select = select.where("at", .greaterThanOrEqual, StoreValue.time(since)) }
        if let until = query.until { select = select.where("at", .lessThan, StoreValue.time(until)) }
        if let clientID = query.clientID { select = select.where("client_id", .equal, clientID) }
        if let address = query.clientAddress { select = select.where("client_address", .equal, address) }
        if let before = query.beforeSequence { select = select.where("seq", .lessThan, before) }
        if !query.events.isEmpty {
            select = select.where { group in
                var group = group
                for event in query.events {
                    group = event.hasSuffix(".")
                        ? group.orWhere("event", .like, Self.likePrefix(event))
                        : group.orWhere("event", .equal, event)
                }
                return group
            }
        }
        let ordered = query.beforeSequence == nil ? select.orderBy("at", .descending) : select
        let rows = try await ordered.orderBy("seq", .descending).limit(max(1, query.limit)).all()
        return try rows.reversed().map { row in
            AuditRecord(
                id: try row.string("id"), time: try row.date("at"), event: try row.string("event"),
                reason: try row.decode(column: "reason", as: String?.self),
                clientAddress: try row.decode(column: "client_address", as: String?.self),
                clientID: try row.decode(column: "client_id", as: String?.self),
                userID: try row.decode(column: "user_id", as: String?.self),
                requestID: try row.decode(column: "request_id", as: String?.self),
                detail: try StoreValue.fromJSON([String: String].self, try row.string("detail"), column: "detail"),
                sequence: try row.decode(column: "seq", as: Int64.self))
        }
    }

    public func auditEventCounts(events: [String], since: Date, bucket: TimeInterval) async throws -> [AuditEventCount] {
        guard !events.isEmpty, bucket >= 1 else { return [] }
        let start = StoreValue.time(since)
        // The interval's index: SQLite's CAST truncates (the difference is never negative);
        // PostgreSQL's rounds, so it floors first.
        let index: SQLQueryString =
            database.dialect.name == "postgresql"
            ? "CAST(FLOOR((at - \(bind: start)) / \(bind: bucket)) AS BIGINT)"
            : "CAST((at - \(bind: start)) / \(bind: bucket) AS INTEGER)"
        let rows = try await database.raw(
            """
            SELECT event, \(index) AS bucket, reason, COUNT(*) AS n FROM audit_events
            WHERE event IN (\(binds: events)) AND at >= \(bind: start)
            GROUP BY event, bucket, reason
            """
        ).all()
        return try rows.map {
            AuditEventCount(
                event: try $0.string("event"), bucket: try $0.decode(column: "bucket", as: Int.self),
                reason: try $0.optionalString("reason"), count: try $0.decode(column: "n", as: Int.self))
        }
    }

    @discardableResult
    public func purgeAuditRecords(before: Date) async throws -> Int {
        let rows = try await database.delete(from: "audit_events")
            .where("at", .lessThan, StoreValue.time(before))
            .returning("id")
            .all()
        return rows.count
    }

    /// A `LIKE` pattern for names starting with `prefix` (event names hold no `%` or `_` wildcards
    /// other than `_`, which matches itself too).
    private static func likePrefix(_ prefix: String) -> String { prefix + "%" }
}

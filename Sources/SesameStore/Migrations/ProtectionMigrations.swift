import SQLKit

/// Schema for abuse protection (single-use challenges, the audit log): versions 300–399
/// (see ``StoreMigrations``). Append only; portable DDL (``StoreDialect``).
enum ProtectionMigrations {
    static let all: [StoreMigrations.Migration] = [
        StoreMigrations.Migration(version: 300, name: "redeemed challenges and the audit log", apply: createTables)
    ]

    private static func createTables(_ db: any SQLDatabase) async throws {
        let time = StoreDialect.timestamp

        // ``ChallengeRedemptionStore``: one row per redeemed challenge until it expires.
        try await db.create(table: "redeemed_challenges").ifNotExists()
            .column("id", type: .text, .primaryKey(autoIncrement: false))
            .column("expires_at", type: time, .notNull)
            .run()

        // ``AuditStore``.
        // `seq` orders records written in the same instant (insertion order).
        try await db.create(table: "audit_events").ifNotExists()
            .column("seq", type: .bigint, .primaryKey(autoIncrement: true))
            .column("id", type: .text, .notNull, .unique)
            .column("at", type: time, .notNull)
            .column("event", type: .text, .notNull)
            .column("reason", type: .text)
            .column("client_address", type: .text)
            .column("client_id", type: .text)
            .column("user_id", type: .text)
            .column("request_id", type: .text)
            .column("detail", type: .text, .notNull)
            .run()

        for index in [
            ("redeemed_challenges_expires_at", "redeemed_challenges", "expires_at"),
            ("audit_events_at", "audit_events", "at"),
            ("audit_events_user_at", "audit_events", "user_id, at"),
            ("audit_events_event_at", "audit_events", "event, at"),
        ] {
            try await db.raw(
                "CREATE INDEX IF NOT EXISTS \(ident: index.0) ON \(ident: index.1) (\(unsafeRaw: index.2))"
            ).run()
        }
    }
}

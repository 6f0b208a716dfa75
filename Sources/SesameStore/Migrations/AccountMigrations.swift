import SQLKit

/// Schema for the accounts slice (verification codes, outbox, devices): versions 200–299.
/// Append only: never edit a released migration. Types follow ``StoreDialect``.
enum AccountMigrations {
    static let all: [StoreMigrations.Migration] = [
        StoreMigrations.Migration(version: 200, name: "account self-service", apply: createAccountTables)
    ]

    private static func createAccountTables(_ db: any SQLDatabase) async throws {
        let time = StoreDialect.timestamp

        // One pending code per user and purpose; the code itself is never stored.
        try await db.create(table: "verification_codes").ifNotExists()
            .column("user_id", type: .text, .notNull)
            .column("purpose", type: .text, .notNull)
            .column("code_digest", type: .text, .notNull)
            .column("target", type: .text, .notNull)
            .column("attempts", type: .bigint, .notNull)
            // Random values written by the winning attempt reservation / consumption.
            .column("attempt_claim", type: .text)
            .column("consumed_claim", type: .text)
            .column("created_at", type: time, .notNull)
            .column("expires_at", type: time, .notNull)
            .primaryKey("user_id", "purpose")
            .run()

        try await db.create(table: "outbox").ifNotExists()
            .column("id", type: .bigint, .primaryKey(autoIncrement: true))
            .column("channel", type: .text, .notNull)
            .column("recipient", type: .text, .notNull)
            .column("subject", type: .text)
            .column("body", type: .text, .notNull)
            .column("purpose", type: .text, .notNull)
            .column("created_at", type: time, .notNull)
            .column("delivered_at", type: time)
            .run()

        try await db.create(table: "devices").ifNotExists()
            .column("user_id", type: .text, .notNull)
            .column("device_id", type: .text, .notNull)
            .column("name", type: .text, .notNull)
            .column("type", type: .text)
            .column("created_at", type: time, .notNull)
            .column("updated_at", type: time, .notNull)
            .primaryKey("user_id", "device_id")
            .run()

        for index in [
            ("verification_codes_expires_at", "verification_codes", "expires_at"),
            ("outbox_recipient", "outbox", "recipient"),
        ] {
            try await db.raw(
                "CREATE INDEX IF NOT EXISTS \(ident: index.0) ON \(ident: index.1) (\(ident: index.2))"
            ).run()
        }
    }
}

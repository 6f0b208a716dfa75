import SQLKit

/// Schema for PIN-protected devices: versions 400–499 (see ``StoreMigrations``). Append only;
/// portable DDL (``StoreDialect``).
enum PINMigrations {
    static let all: [StoreMigrations.Migration] = [
        StoreMigrations.Migration(version: 400, name: "PIN registrations and client PIN policies", apply: createTables)
    ]

    private static func createTables(_ db: any SQLDatabase) async throws {
        let time = StoreDialect.timestamp
        try await db.create(table: "pin_registrations").ifNotExists()
            .column("id", type: .text, .primaryKey(autoIncrement: false))
            .column("user_id", type: .text, .notNull)
            .column("client_id", type: .text, .notNull)
            .column("label", type: .text)
            .column("public_key", type: .text, .notNull)
            .column("failures", type: .bigint, .notNull)
            .column("created_at", type: time, .notNull)
            .column("last_used_at", type: time)
            .run()
        try await db.raw(
            "CREATE INDEX IF NOT EXISTS pin_registrations_user ON pin_registrations (user_id)"
        ).run()
        try await db.create(table: "client_pin_policies").ifNotExists()
            .column("client_id", type: .text, .primaryKey(autoIncrement: false))
            .column("policy", type: .text, .notNull)
            .run()
    }
}

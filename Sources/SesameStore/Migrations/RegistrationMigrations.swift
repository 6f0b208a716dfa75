import SQLKit

/// Dynamic client registration (RFC 7591, RFC 7592; issue #49): each registered client's
/// registration, and the operator's initial access tokens.
enum RegistrationMigrations {
    static let all: [StoreMigrations.Migration] = [
        StoreMigrations.Migration(version: 1600, name: "dynamic client registration", apply: createRegistrations)
    ]

    private static func createRegistrations(_ db: any SQLDatabase) async throws {
        try await db.create(table: "client_registrations").ifNotExists()
            .column("client_id", type: .text, .primaryKey(autoIncrement: false))
            .column("access_token_digest", type: .text, .notNull)
            .column("software_id", type: .text)
            .column("software_version", type: .text)
            .column("registered_at", type: StoreDialect.timestamp, .notNull)
            .column("used_at", type: StoreDialect.timestamp)
            .run()
        try await db.raw(
            "CREATE INDEX IF NOT EXISTS client_registrations_unused ON client_registrations (registered_at) WHERE used_at IS NULL"
        ).run()
        try await db.create(table: "initial_access_tokens").ifNotExists()
            .column("digest", type: .text, .primaryKey(autoIncrement: false))
            .column("created_at", type: StoreDialect.timestamp, .notNull)
            .column("expires_at", type: StoreDialect.timestamp, .notNull)
            .column("uses_left", type: .bigint, .notNull)
            .run()
    }
}

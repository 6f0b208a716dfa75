import SQLKit

/// Schema for federation: versions 600–699 (see ``StoreMigrations``). Append only; portable
/// DDL (``StoreDialect``).
enum FederationMigrations {
    static let all: [StoreMigrations.Migration] = [
        StoreMigrations.Migration(version: 600, name: "federation providers and linked identities", apply: createTables),
        StoreMigrations.Migration(version: 601, name: "provider ID tokens used once", apply: createUsedTokens),
    ]

    /// A provider's ID token signs in once: its digest is kept until it expires (issue #28 §5).
    private static func createUsedTokens(_ db: any SQLDatabase) async throws {
        try await db.create(table: "used_federated_tokens").ifNotExists()
            .column("id", type: .text, .primaryKey(autoIncrement: false))
            .column("expires_at", type: StoreDialect.timestamp, .notNull)
            .run()
        try await db.raw(
            "CREATE INDEX IF NOT EXISTS used_federated_tokens_expires_at ON used_federated_tokens (expires_at)"
        ).run()
    }

    private static func createTables(_ db: any SQLDatabase) async throws {
        try await db.create(table: "federation_providers").ifNotExists()
            .column("id", type: .text, .primaryKey(autoIncrement: false))
            .column("provider", type: .text, .notNull)
            .column("created_at", type: StoreDialect.timestamp, .notNull)
            .run()
        try await db.create(table: "federated_identities").ifNotExists()
            .column("provider_id", type: .text, .notNull)
            .column("subject", type: .text, .notNull)
            .column("user_id", type: .text, .notNull)
            .column("email", type: .text)
            .column("linked_at", type: StoreDialect.timestamp, .notNull)
            .run()
        try await db.raw(
            "CREATE UNIQUE INDEX IF NOT EXISTS federated_identities_key ON federated_identities (provider_id, subject)"
        ).run()
        try await db.raw("CREATE INDEX IF NOT EXISTS federated_identities_user ON federated_identities (user_id)").run()
    }
}

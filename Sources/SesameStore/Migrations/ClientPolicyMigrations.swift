import SQLKit

/// Client settings added with issue #44: who may introspect what, and the device grant's
/// timing per client.
enum ClientPolicyMigrations {
    static let all: [StoreMigrations.Migration] = [
        StoreMigrations.Migration(
            version: 1300, name: "introspection policy and device grant timing per client", apply: addClientPolicy)
    ]

    /// `clients.introspects_any_token` (false for every client registered before: it sees only
    /// its own tokens), `clients.device_code_lifetime` and `clients.device_poll_interval`
    /// (NULL: the server's).
    private static func addClientPolicy(_ db: any SQLDatabase) async throws {
        if await !StoreMigrations.hasColumn("introspects_any_token", in: "clients", db) {
            try await db.alter(table: "clients")
                .column("introspects_any_token", type: StoreDialect.boolean, .notNull, .default(false))
                .run()
        }
        for column in ["device_code_lifetime", "device_poll_interval"]
        where await !StoreMigrations.hasColumn(column, in: "clients", db) {
            try await db.alter(table: "clients").column(column, type: .bigint).run()
        }
    }
}

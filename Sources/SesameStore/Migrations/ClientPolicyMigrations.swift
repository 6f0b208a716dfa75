import SQLKit

/// Client settings added with issue #44 (who may introspect what, and the device grant's
/// timing per client) and #48 (mutual TLS).
enum ClientPolicyMigrations {
    static let all: [StoreMigrations.Migration] = [
        StoreMigrations.Migration(
            version: 1300, name: "introspection policy and device grant timing per client", apply: addClientPolicy),
        StoreMigrations.Migration(
            version: 1301, name: "mutual TLS client authentication and certificate-bound tokens", apply: addMutualTLS),
    ]

    /// `clients.tls_client_auth_subject` (RFC 8705 §2.1.2, JSON: the one registered member,
    /// NULL for other methods) and `clients.certificate_bound_access_tokens` (§3, false for
    /// every client registered before).
    private static func addMutualTLS(_ db: any SQLDatabase) async throws {
        if await !StoreMigrations.hasColumn("tls_client_auth_subject", in: "clients", db) {
            try await db.alter(table: "clients").column("tls_client_auth_subject", type: .text).run()
        }
        if await !StoreMigrations.hasColumn("certificate_bound_access_tokens", in: "clients", db) {
            try await db.alter(table: "clients")
                .column("certificate_bound_access_tokens", type: StoreDialect.boolean, .notNull, .default(false))
                .run()
        }
    }

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

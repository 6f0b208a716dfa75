import SQLKit

/// Schema for pushed authorization requests (RFC 9126, issue #32).
enum PushedRequestMigrations {
    static let all: [StoreMigrations.Migration] = [
        StoreMigrations.Migration(version: 900, name: "pushed authorization requests", apply: createPushedRequests)
    ]

    /// `pushed_requests`, and `clients.require_pushed_requests` (RFC 9126 §6
    /// `require_pushed_authorization_requests`), false for every client registered before.
    private static func createPushedRequests(_ db: any SQLDatabase) async throws {
        try await db.create(table: "pushed_requests").ifNotExists()
            .column("request_digest", type: .text, .primaryKey(autoIncrement: false))
            .column("client_id", type: .text, .notNull)
            .column("parameters", type: .text, .notNull)
            .column("expires_at", type: StoreDialect.timestamp, .notNull)
            .run()
        try await db.raw("CREATE INDEX IF NOT EXISTS pushed_requests_expires_at ON pushed_requests (expires_at)").run()
        if await !StoreMigrations.hasColumn("require_pushed_requests", in: "clients", db) {
            try await db.alter(table: "clients")
                .column("require_pushed_requests", type: StoreDialect.boolean, .notNull, .default(false))
                .run()
        }
    }
}

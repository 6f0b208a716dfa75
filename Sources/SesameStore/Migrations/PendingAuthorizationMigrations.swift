import SQLKit

/// Schema for authorization requests held on the server during a sign-in (issue #44).
enum PendingAuthorizationMigrations {
    static let all: [StoreMigrations.Migration] = [
        StoreMigrations.Migration(
            version: 1200, name: "authorization requests held for a browser", apply: createPendingAuthorizations)
    ]

    /// `pending_authorizations`: one row per accepted request shown a hosted step, found by the
    /// digest of its reference and the browser it is bound to; `completed_at` is set once.
    private static func createPendingAuthorizations(_ db: any SQLDatabase) async throws {
        try await db.create(table: "pending_authorizations").ifNotExists()
            .column("request_digest", type: .text, .primaryKey(autoIncrement: false))
            .column("browser_binding", type: .text, .notNull)
            .column("client_id", type: .text, .notNull)
            .column("parameters", type: .text, .notNull)
            .column("pushed", type: StoreDialect.boolean, .notNull)
            .column("expires_at", type: StoreDialect.timestamp, .notNull)
            .column("completed_at", type: StoreDialect.timestamp)
            .run()
        try await db.raw(
            "CREATE INDEX IF NOT EXISTS pending_authorizations_expires_at ON pending_authorizations (expires_at)"
        ).run()
    }
}

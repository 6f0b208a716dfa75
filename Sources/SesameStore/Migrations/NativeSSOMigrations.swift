import SQLKit

/// Schema for single sign-on across a vendor's apps (Native SSO) and RFC 7523 client
/// assertions: versions 500–599 (see ``StoreMigrations``). Append only; portable DDL
/// (``StoreDialect``).
enum NativeSSOMigrations {
    static let all: [StoreMigrations.Migration] = [
        StoreMigrations.Migration(
            version: 500, name: "device sessions, app groups, client keys and assertion replay", apply: createTables)
    ]

    private static func createTables(_ db: any SQLDatabase) async throws {
        let time = StoreDialect.timestamp
        try await db.create(table: "device_sessions").ifNotExists()
            .column("id", type: .text, .primaryKey(autoIncrement: false))
            .column("secret_digest", type: .text, .notNull)
            .column("user_id", type: .text, .notNull)
            .column("app_group", type: .text, .notNull)
            .column("authentication", type: .text, .notNull)
            .column("browser_session_id", type: .text)
            .column("created_at", type: time, .notNull)
            .column("expires_at", type: time, .notNull)
            .column("revoked_at", type: time)
            .run()
        for (name, column) in [
            ("device_sessions_secret", "secret_digest"), ("device_sessions_user", "user_id"),
            ("device_sessions_browser", "browser_session_id"), ("device_sessions_expires_at", "expires_at"),
        ] {
            try await db.raw("CREATE INDEX IF NOT EXISTS \(unsafeRaw: name) ON device_sessions (\(unsafeRaw: column))").run()
        }
        // `clients.app_group` (``ClientRecord/appGroup``) and `clients.jwks` (the public keys
        // of a `private_key_jwt` client).
        for column in ["app_group", "jwks"] where await !StoreMigrations.hasColumn(column, in: "clients", db) {
            try await db.alter(table: "clients").column(column, type: .text).run()
        }
        try await db.create(table: "used_client_assertions").ifNotExists()
            .column("id", type: .text, .primaryKey(autoIncrement: false))
            .column("expires_at", type: time, .notNull)
            .run()
        try await db.raw(
            "CREATE INDEX IF NOT EXISTS used_client_assertions_expires_at ON used_client_assertions (expires_at)"
        ).run()
    }
}

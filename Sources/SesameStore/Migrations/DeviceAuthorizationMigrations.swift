import SQLKit

/// Schema for the device authorization grant (RFC 8628, issue #33).
enum DeviceAuthorizationMigrations {
    static let all: [StoreMigrations.Migration] = [
        StoreMigrations.Migration(version: 1100, name: "device authorization requests", apply: createDeviceAuthorizations)
    ]

    /// `device_authorizations`: one row per request, found by the device code's digest (polls)
    /// or the user code's (the `/device` page; unique, so one typed code names one request).
    /// Polls are answered from the primary key alone, however many requests are pending.
    private static func createDeviceAuthorizations(_ db: any SQLDatabase) async throws {
        try await db.create(table: "device_authorizations").ifNotExists()
            .column("device_code_digest", type: .text, .primaryKey(autoIncrement: false))
            .column("user_code_digest", type: .text, .notNull, .unique)
            .column("client_id", type: .text, .notNull)
            .column("scope", type: .text, .notNull)
            .column("device_name", type: .text)
            .column("status", type: .text, .notNull)
            .column("created_at", type: StoreDialect.timestamp, .notNull)
            .column("expires_at", type: StoreDialect.timestamp, .notNull)
            .column("poll_interval", type: .bigint, .notNull)
            .column("last_polled_at", type: StoreDialect.timestamp)
            .column("polled_early", type: .bigint, .notNull, .default(0))
            .column("authentication", type: .text)
            .column("session_id", type: .text)
            .column("user_id", type: .text)
            .column("decided_at", type: StoreDialect.timestamp)
            .run()
        try await db.raw("CREATE INDEX IF NOT EXISTS device_authorizations_expires_at ON device_authorizations (expires_at)")
            .run()
    }
}

import SQLKit

/// Schema for passkeys (WebAuthn): versions 700–799 (see ``StoreMigrations``). Append only;
/// portable DDL (``StoreDialect``).
enum PasskeyMigrations {
    static let all: [StoreMigrations.Migration] = [
        StoreMigrations.Migration(version: 700, name: "passkeys and WebAuthn challenges", apply: createTables),
        StoreMigrations.Migration(version: 701, name: "failed passkey assertions counted and locked", apply: addFailureCounter),
    ]

    private static func createTables(_ db: any SQLDatabase) async throws {
        let time = StoreDialect.timestamp
        let boolean = StoreDialect.boolean
        try await db.create(table: "passkeys").ifNotExists()
            .column("credential_id", type: .text, .primaryKey(autoIncrement: false))
            .column("user_id", type: .text, .notNull)
            .column("public_key", type: .text, .notNull)
            .column("sign_count", type: .bigint, .notNull)
            .column("uv_initialized", type: boolean, .notNull)
            .column("backup_eligible", type: boolean, .notNull)
            .column("backup_state", type: boolean, .notNull)
            .column("transports", type: .text, .notNull)
            .column("aaguid", type: .text, .notNull)
            .column("attestation_format", type: .text, .notNull)
            .column("name", type: .text, .notNull)
            .column("created_at", type: time, .notNull)
            .column("last_used_at", type: time)
            .run()
        try await db.raw("CREATE INDEX IF NOT EXISTS passkeys_user ON passkeys (user_id)").run()
        try await db.create(table: "webauthn_challenges").ifNotExists()
            .column("challenge_digest", type: .text, .primaryKey(autoIncrement: false))
            .column("purpose", type: .text, .notNull)
            .column("user_id", type: .text)
            .column("binding", type: .text, .notNull)
            .column("client_id", type: .text)
            .column("payload", type: .text)
            .column("created_at", type: time, .notNull)
            .column("expires_at", type: time, .notNull)
            .run()
        try await db.raw("CREATE INDEX IF NOT EXISTS webauthn_challenges_expires_at ON webauthn_challenges (expires_at)").run()
    }

    /// `passkeys.failures` and `passkeys.locked_at` (``PasskeyRecord/failures``,
    /// ``PasskeyRecord/lockedAt``): assertions whose signature did not verify, counted before
    /// the signature is checked, and the lock after too many in a row (docs/passkeys.md,
    /// "Wrong signatures"). Existing passkeys start at 0, unlocked.
    private static func addFailureCounter(_ db: any SQLDatabase) async throws {
        // Probe first: ADD COLUMN has no IF NOT EXISTS in SQLite (``StoreMigrations/hasColumn(_:in:_:)``).
        if await !StoreMigrations.hasColumn("failures", in: "passkeys", db) {
            try await db.alter(table: "passkeys").column("failures", type: .bigint, .notNull, .default(0)).run()
        }
        if await !StoreMigrations.hasColumn("locked_at", in: "passkeys", db) {
            try await db.alter(table: "passkeys").column("locked_at", type: StoreDialect.timestamp).run()
        }
    }
}

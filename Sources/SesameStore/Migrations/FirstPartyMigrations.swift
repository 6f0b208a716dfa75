import SQLKit

/// Schema for the first-party sign-in slice: versions 100–199 (see ``StoreMigrations``).
/// Portable DDL only (``StoreDialect``): the same statements run on SQLite and PostgreSQL.
enum FirstPartyMigrations {
    static let all: [StoreMigrations.Migration] = [
        StoreMigrations.Migration(version: 100, name: "MFA enrolments, auth sessions, client MFA policy", apply: createMFASchema),
        StoreMigrations.Migration(version: 101, name: "first-party clients", apply: addFirstPartyFlag),
    ]

    /// `clients.first_party` (``ClientRecord/firstParty``): existing clients become third-party,
    /// so `/authorize-challenge` and the account APIs are closed to them until an operator
    /// registers them as first-party (draft-ietf-oauth-first-party-apps, Security
    /// Considerations, "First-Party Applications").
    private static func addFirstPartyFlag(_ db: any SQLDatabase) async throws {
        // Probe first, as for `mfa_policy`: ADD COLUMN has no IF NOT EXISTS in SQLite.
        if await !StoreMigrations.hasColumn("first_party", in: "clients", db) {
            try await db.alter(table: "clients")
                .column("first_party", type: StoreDialect.boolean, .notNull, .default(false))
                .run()
        }
    }

    private static func createMFASchema(_ db: any SQLDatabase) async throws {
        let time = StoreDialect.timestamp
        let bool = StoreDialect.boolean

        // ClientRecord.mfaPolicy (see ``StoreMigrations/hasColumn(_:in:_:)``).
        if await !StoreMigrations.hasColumn("mfa_policy", in: "clients", db) {
            try await db.alter(table: "clients")
                .column("mfa_policy", type: .text, .notNull, .default(MFAPolicy.whenEnrolled.rawValue))
                .run()
        }

        try await db.create(table: "mfa_enrollments").ifNotExists()
            .column("user_id", type: .text, .notNull)
            .column("method", type: .text, .notNull)
            .column("confirmed", type: bool, .notNull)
            .column("sealed_secret", type: .text)
            .column("phone_number", type: .text)
            .column("code_digest", type: .text)
            .column("code_expires_at", type: time)
            .column("attempts", type: .bigint, .notNull)
            // Random value written by the request that reserved the latest attempt.
            .column("attempt_claim", type: .text)
            .column("last_used_step", type: .bigint)
            .column("step_claim", type: .text)
            .column("created_at", type: time, .notNull)
            .column("confirmed_at", type: time)
            .primaryKey("user_id", "method")
            .run()

        try await db.create(table: "mfa_auth_sessions").ifNotExists()
            .column("session_digest", type: .text, .primaryKey(autoIncrement: false))
            .column("client_id", type: .text, .notNull)
            .column("user_id", type: .text, .notNull)
            .column("scope", type: .text, .notNull)
            .column("code_challenge", type: .text, .notNull)
            .column("redirect_uri", type: .text, .notNull)
            .column("nonce", type: .text)
            .column("methods", type: .text, .notNull)
            .column("first_factor", type: .text, .notNull)
            .column("reauthentication", type: bool, .notNull)
            .column("ui_locales", type: .text)
            .column("chosen_method", type: .text)
            .column("code_digest", type: .text)
            .column("code_expires_at", type: time)
            .column("codes_sent", type: .bigint, .notNull)
            .column("attempts", type: .bigint, .notNull)
            .column("attempt_claim", type: .text)
            .column("consumed_claim", type: .text)
            .column("created_at", type: time, .notNull)
            .column("expires_at", type: time, .notNull)
            .run()

        try await db.create(table: "reauthentication_codes").ifNotExists()
            .column("code_digest", type: .text, .primaryKey(autoIncrement: false))
            .column("expires_at", type: time, .notNull)
            .run()

        let indexes: [(name: String, table: String, column: String)] = [
            ("mfa_auth_sessions_user_id", "mfa_auth_sessions", "user_id"),
            ("mfa_auth_sessions_expires_at", "mfa_auth_sessions", "expires_at"),
            ("reauthentication_codes_expires_at", "reauthentication_codes", "expires_at"),
        ]
        for index in indexes {
            try await db.raw(
                "CREATE INDEX IF NOT EXISTS \(ident: index.name) ON \(ident: index.table) (\(ident: index.column))"
            ).run()
        }
    }
}

import SQLKit

/// Schema for DPoP (RFC 9449, issue #32): the proofs seen (`jti`, §11.1), the key a code or a
/// refresh token is bound to, and the clients that must bind their tokens.
enum DPoPMigrations {
    static let all: [StoreMigrations.Migration] = [
        StoreMigrations.Migration(version: 1000, name: "DPoP proofs and bindings", apply: createDPoP)
    ]

    /// `used_dpop_proofs` (one row per proof until it is too old to be accepted),
    /// `authorization_codes.dpop_jkt` (§10), `refresh_tokens.dpop_jkt` (§5) and
    /// `clients.dpop_bound_access_tokens` (§5.2), false for every client registered before, and
    /// `clients.security_profile` (`standard`, or `fapi2`: docs/fapi2.md).
    private static func createDPoP(_ db: any SQLDatabase) async throws {
        try await db.create(table: "used_dpop_proofs").ifNotExists()
            .column("proof_digest", type: .text, .primaryKey(autoIncrement: false))
            .column("expires_at", type: StoreDialect.timestamp, .notNull)
            .run()
        try await db.raw("CREATE INDEX IF NOT EXISTS used_dpop_proofs_expires_at ON used_dpop_proofs (expires_at)").run()
        for table in ["authorization_codes", "refresh_tokens"] where await !StoreMigrations.hasColumn("dpop_jkt", in: table, db) {
            try await db.alter(table: table).column("dpop_jkt", type: .text).run()
        }
        if await !StoreMigrations.hasColumn("dpop_bound_access_tokens", in: "clients", db) {
            try await db.alter(table: "clients")
                .column("dpop_bound_access_tokens", type: StoreDialect.boolean, .notNull, .default(false))
                .run()
        }
        if await !StoreMigrations.hasColumn("security_profile", in: "clients", db) {
            try await db.alter(table: "clients")
                .column("security_profile", type: .text, .notNull, .default(SQLLiteral.string("standard")))
                .run()
        }
    }
}

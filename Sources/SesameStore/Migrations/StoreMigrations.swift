import Foundation
import Logging
import SQLKit

/// Versioned schema migrations, recorded in `schema_migrations`. Each migration runs
/// once per database; running them again is a no-op, and two processes racing at start-up are
/// harmless (`IF NOT EXISTS` everywhere, the version row is inserted ignoring conflicts).
///
/// Types are portable (``StoreDialect``): the same DDL runs on SQLite and PostgreSQL.
enum StoreMigrations {
    /// The columns that name a refresh-token family's owners, copied unchanged to every token of
    /// the family and indexed on its root only (migration 4): a family is found through its root.
    static let familyOwnerColumns = ["user_id", "session_id", "client_id"]

    struct Migration: Sendable {
        let version: Int
        let name: String
        let apply: @Sendable (any SQLDatabase) async throws -> Void
    }

    /// Every migration, in order. Append only: never edit a released migration.
    /// Versions 1–99: core; 100–199: first-party sign-in and MFA (`FirstPartyMigrations`);
    /// 200–299: accounts, messaging and devices (`AccountMigrations`); 300–399: abuse protection
    /// (`ProtectionMigrations`); 400–499: PIN-protected devices (`PINMigrations`); 500–599: single
    /// sign-on across apps and client keys (`NativeSSOMigrations`); 600–699: federation
    /// (`FederationMigrations`); 700–799 passkeys; 800–899 token signing; 900–999 pushed requests;
    /// 1000–1099 DPoP; 1100–1199 device authorization; 1200–1299 authorization requests held for
    /// a browser (`PendingAuthorizationMigrations`); 1300–1399 client policies
    /// (`ClientPolicyMigrations`); 1400–1499 the admin API and console (`AdminMigrations`); 1500–1599
    /// registered APIs (`ResourceMigrations`); 1600–1699 dynamic client registration
    /// (`RegistrationMigrations`).
    static let all: [Migration] = [
        Migration(version: 1, name: "initial schema", apply: createInitialSchema),
        Migration(version: 2, name: "refresh-token successor links", apply: linkRefreshTokenSuccessors),
        Migration(version: 3, name: "claims request parameter", apply: addClaimsRequests),
        Migration(version: 4, name: "refresh families indexed by their root token", apply: indexRefreshFamilyRoots),
        Migration(version: 5, name: "why a refresh family was revoked", apply: addRevocationReasons),
        Migration(version: 6, name: "password-guessing counters shared by every process", apply: createThrottleCounters),
        Migration(version: 7, name: "fixed-window request counters shared by every process", apply: createRateWindows),
        Migration(version: 8, name: "live refresh-family roots by user", apply: indexLiveRefreshRoots),
    ] + FirstPartyMigrations.all + AccountMigrations.all + ProtectionMigrations.all
        + PINMigrations.all + NativeSSOMigrations.all + FederationMigrations.all + PasskeyMigrations.all
        + TokenSigningMigrations.all + PushedRequestMigrations.all + DPoPMigrations.all
        + DeviceAuthorizationMigrations.all + PendingAuthorizationMigrations.all
        + ClientPolicyMigrations.all + AdminMigrations.all + ResourceMigrations.all + RegistrationMigrations.all

    static func run(on database: any SQLDatabase, logger: Logger) async throws {
        do {
            try await database.create(table: "schema_migrations").ifNotExists()
                .column("version", type: .bigint, .primaryKey(autoIncrement: false))
                .column("name", type: .text, .notNull)
                .column("applied_at", type: StoreDialect.timestamp, .notNull)
                .run()
            let applied = Set(
                try await database.select().column("version").from("schema_migrations")
                    .all(decodingColumn: "version", as: Int.self))
            // A newer Sesame may have changed what this one's statements rely on (migration 4
            // made the successor index partial, which older rotations cannot target).
            if let newer = applied.subtracting(all.map(\.version)).max() {
                throw StoreError.unavailable(
                    reason: "the database was migrated by a newer Sesame (schema version \(newer), which this version does not know); run that version or a later one, or restore a backup taken before the upgrade")
            }
            for migration in all where !applied.contains(migration.version) {
                logger.info(
                    "applying store migration",
                    metadata: ["version": "\(migration.version)", "name": "\(migration.name)"])
                try await migration.apply(database)
                try await database.insert(into: "schema_migrations")
                    .columns("version", "name", "applied_at")
                    .values(migration.version, migration.name, Date().timeIntervalSince1970)
                    .ignoringConflicts(with: "version")
                    .run()
            }
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError.unavailable(
                reason: "the schema migration failed (\(error)); check that the data directory holds a Sesame database and is writable")
        }
    }

    /// Whether `table` has `column`. ADD COLUMN has no IF NOT EXISTS in SQLite, so a migration
    /// that adds one probes first: a second process racing through it must not fail.
    static func hasColumn(_ column: String, in table: String, _ db: any SQLDatabase) async -> Bool {
        (try? await db.select().column(column).from(table).limit(1).all()) != nil
    }

    // MARK: - Version 1

    private static func createInitialSchema(_ db: any SQLDatabase) async throws {
        let time = StoreDialect.timestamp
        let bool = StoreDialect.boolean

        try await db.create(table: "clients").ifNotExists()
            .column("client_id", type: .text, .primaryKey(autoIncrement: false))
            .column("name", type: .text, .notNull)
            .column("secret_hash", type: .text)
            .column("redirect_uris", type: .text, .notNull)
            .column("post_logout_redirect_uris", type: .text, .notNull)
            .column("grant_types", type: .text, .notNull)
            .column("allowed_scopes", type: .text, .notNull)
            .column("token_endpoint_auth_method", type: .text, .notNull)
            .column("id_token_signing_alg", type: .text, .notNull)
            .column("access_token_lifetime", type: .bigint, .notNull)
            .column("id_token_lifetime", type: .bigint, .notNull)
            .column("refresh_token_lifetime", type: .bigint, .notNull)
            .column("created_at", type: time, .notNull)
            .run()

        try await db.create(table: "users").ifNotExists()
            .column("id", type: .text, .primaryKey(autoIncrement: false))
            .column("username", type: .text, .notNull, .unique)
            .column("email", type: .text, .notNull, .unique)
            .column("email_verified", type: bool, .notNull)
            .column("password_hash", type: .text)
            .column("claims", type: .text, .notNull)
            .column("created_at", type: time, .notNull)
            .column("updated_at", type: time, .notNull)
            .run()

        try await db.create(table: "signing_keys").ifNotExists()
            .column("kid", type: .text, .primaryKey(autoIncrement: false))
            .column("algorithm", type: .text, .notNull)
            .column("sealed_private_key", type: .text, .notNull)
            .column("created_at", type: time, .notNull)
            .column("activates_at", type: time, .notNull)
            .column("retired_at", type: time)
            .column("expires_at", type: time)
            .run()

        try await db.create(table: "authorization_codes").ifNotExists()
            .column("code_digest", type: .text, .primaryKey(autoIncrement: false))
            .column("client_id", type: .text, .notNull)
            .column("user_id", type: .text, .notNull)
            .column("redirect_uri", type: .text, .notNull)
            .column("scope", type: .text, .notNull)
            .column("nonce", type: .text)
            .column("code_challenge", type: .text, .notNull)
            .column("authentication", type: .text, .notNull)
            .column("session_id", type: .text)
            .column("expires_at", type: time, .notNull)
            .column("consumed_at", type: time)
            .column("family_id", type: .text)
            // Random value written by the winning redemption (see `redeemAuthorizationCode`).
            .column("redemption_claim", type: .text)
            .run()

        try await db.create(table: "refresh_tokens").ifNotExists()
            .column("token_digest", type: .text, .primaryKey(autoIncrement: false))
            .column("family_id", type: .text, .notNull)
            .column("client_id", type: .text, .notNull)
            .column("user_id", type: .text, .notNull)
            .column("scope", type: .text, .notNull)
            .column("authentication", type: .text, .notNull)
            .column("session_id", type: .text)
            .column("issued_at", type: time, .notNull)
            .column("expires_at", type: time, .notNull)
            .column("rotated_at", type: time)
            .column("revoked_at", type: time)
            .column("redemption_claim", type: .text)
            .run()

        // A row per revoked refresh-token family; kept until every token of the family expired.
        try await db.create(table: "revoked_refresh_families").ifNotExists()
            .column("family_id", type: .text, .primaryKey(autoIncrement: false))
            .column("revoked_at", type: time, .notNull)
            .column("expires_at", type: time, .notNull)
            .run()

        try await db.create(table: "revoked_access_tokens").ifNotExists()
            .column("jti", type: .text, .primaryKey(autoIncrement: false))
            .column("expires_at", type: time, .notNull)
            .run()

        try await db.create(table: "browser_sessions").ifNotExists()
            .column("id_digest", type: .text, .primaryKey(autoIncrement: false))
            .column("sid", type: .text, .notNull, .unique)
            .column("user_id", type: .text, .notNull)
            .column("authentication", type: .text, .notNull)
            .column("created_at", type: time, .notNull)
            .column("expires_at", type: time, .notNull)
            .run()

        let indexes: [(name: String, table: String, column: String)] = [
            ("authorization_codes_expires_at", "authorization_codes", "expires_at"),
            ("authorization_codes_client_id", "authorization_codes", "client_id"),
            ("authorization_codes_user_id", "authorization_codes", "user_id"),
            ("refresh_tokens_family_id", "refresh_tokens", "family_id"),
            ("refresh_tokens_session_id", "refresh_tokens", "session_id"),
            ("refresh_tokens_client_id", "refresh_tokens", "client_id"),
            ("refresh_tokens_user_id", "refresh_tokens", "user_id"),
            ("refresh_tokens_expires_at", "refresh_tokens", "expires_at"),
            ("revoked_refresh_families_expires_at", "revoked_refresh_families", "expires_at"),
            ("revoked_access_tokens_expires_at", "revoked_access_tokens", "expires_at"),
            ("browser_sessions_user_id", "browser_sessions", "user_id"),
            ("browser_sessions_expires_at", "browser_sessions", "expires_at"),
        ]
        for index in indexes {
            try await db.raw(
                "CREATE INDEX IF NOT EXISTS \(ident: index.name) ON \(ident: index.table) (\(ident: index.column))"
            ).run()
        }
    }

    // MARK: - Version 2

    /// `refresh_tokens.parent_digest`: the token a row replaced. Rotation becomes one
    /// `INSERT … SELECT` (``SQLIdentityStore/rotateRefreshToken(digest:into:)``) and the unique
    /// index lets a token have one successor only. Rows rotated before keep `rotated_at`.
    private static func linkRefreshTokenSuccessors(_ db: any SQLDatabase) async throws {
        if await !hasColumn("parent_digest", in: "refresh_tokens", db) {
            try await db.alter(table: "refresh_tokens").column("parent_digest", type: .text).run()
        }
        try await db.raw(
            "CREATE UNIQUE INDEX IF NOT EXISTS refresh_tokens_parent_digest ON refresh_tokens (parent_digest)"
        ).run()
    }

    // MARK: - Version 3

    /// `claims_request` on codes and refresh tokens: the granted `claims` authorization request
    /// parameter (OIDC Core §5.5) as JSON, `NULL` when none was sent.
    private static func addClaimsRequests(_ db: any SQLDatabase) async throws {
        for table in ["authorization_codes", "refresh_tokens"] {
            if await !hasColumn("claims_request", in: table, db) {
                try await db.alter(table: table).column("claims_request", type: .text).run()
            }
        }
    }

    // MARK: - Version 8

    /// The session cap reads a user's live families at every sign-in (``SessionCap``). Evicted
    /// and signed-out families keep their rows until they expire, so reading the user's roots
    /// through `refresh_tokens_root_user_id` grew with every sign-in: after 5,000 sign-ins of
    /// one user each new one scanned 5,000 dead roots. Revoking a family stamps `revoked_at` on
    /// all its rows, so an index over the roots that are not revoked holds only the live ones.
    private static func indexLiveRefreshRoots(_ db: any SQLDatabase) async throws {
        try await db.raw(
            """
            CREATE INDEX IF NOT EXISTS refresh_tokens_live_root_user_id ON refresh_tokens (user_id) \
            WHERE parent_digest IS NULL AND revoked_at IS NULL
            """
        ).run()
    }

    // MARK: - Version 4

    /// A refresh-token family is found by user, session or client through its root: the token
    /// the code exchange issued (`parent_digest IS NULL`). The three indexes become partial
    /// indexes over roots (SQLite ≥ 3.8 and PostgreSQL both have `CREATE INDEX … WHERE`), so a
    /// rotation, which inserts a non-root row, writes five B-trees instead of eight. The unique
    /// successor index becomes partial the other way round (non-roots only).
    ///
    /// The purge used to delete an expired root while its family lived on; a row whose parent
    /// is gone therefore becomes its family's root here (its parent can no longer be rotated,
    /// so the link has nothing left to guard), and the purge now keeps roots of live families.
    private static func indexRefreshFamilyRoots(_ db: any SQLDatabase) async throws {
        try await db.raw(
            """
            UPDATE refresh_tokens SET parent_digest = NULL
            WHERE parent_digest IS NOT NULL AND NOT EXISTS
            (SELECT 1 FROM refresh_tokens AS parent WHERE parent.token_digest = refresh_tokens.parent_digest)
            """
        ).run()
        // The successor link's uniqueness needs no entry for roots; without them, lookups of
        // roots (`parent_digest IS NULL`) cannot pick this index over the partial ones below.
        try await db.raw(
            """
            CREATE UNIQUE INDEX IF NOT EXISTS refresh_tokens_successor ON refresh_tokens (parent_digest) \
            WHERE parent_digest IS NOT NULL
            """
        ).run()
        try await db.raw("DROP INDEX IF EXISTS refresh_tokens_parent_digest").run()
        for column in familyOwnerColumns {
            try await db.raw("DROP INDEX IF EXISTS \(ident: "refresh_tokens_" + column)").run()
            try await db.raw(
                """
                CREATE INDEX IF NOT EXISTS \(ident: "refresh_tokens_root_" + column) \
                ON refresh_tokens (\(ident: column)) WHERE parent_digest IS NULL
                """
            ).run()
        }
    }

    // MARK: - Version 5

    /// `revoked_refresh_families.reason` (``RefreshFamilyRevocationReason``), so that the
    /// rightful client of a leaked token learns why its session ended. Families revoked
    /// before have none.
    private static func addRevocationReasons(_ db: any SQLDatabase) async throws {
        if await !hasColumn("reason", in: "revoked_refresh_families", db) {
            try await db.alter(table: "revoked_refresh_families").column("reason", type: .text).run()
        }
    }

    // MARK: - Version 6

    // MARK: - Version 7

    /// ``RateWindowStore``: requests per key in a fixed window (account mail, rate limits).
    private static func createRateWindows(_ db: any SQLDatabase) async throws {
        try await db.create(table: "rate_windows").ifNotExists()
            .column("key", type: .text, .primaryKey(autoIncrement: false))
            .column("window_start", type: StoreDialect.timestamp, .notNull)
            .column("count", type: .bigint, .notNull)
            .run()
    }

    /// ``ThrottleStore``: failures and lockouts per login name (a digest) or client address.
    private static func createThrottleCounters(_ db: any SQLDatabase) async throws {
        try await db.create(table: "throttle_counters").ifNotExists()
            .column("key", type: .text, .primaryKey(autoIncrement: false))
            .column("failures", type: .bigint, .notNull)
            .column("last_failure", type: StoreDialect.timestamp, .notNull)
            .column("locked_until", type: StoreDialect.timestamp)
            .run()
    }
}

import Foundation
import SQLKit
import SesameProtocol

// Refresh tokens with rotation and reuse detection (RFC 9700 §4.14.2, OAuth 2.1 §4.3.1):
// every use rotates the token; a rotated or revoked token presented again is `.replayed`, and
// the caller revokes its whole family.
extension SQLIdentityStore {
    public func insertRefreshToken(_ token: RefreshTokenRecord) async throws {
        let values: [any Encodable & Sendable] = [
            token.tokenDigest, token.familyID, token.clientID, token.authentication.userID,
            token.scope, try StoreValue.json(token.authentication), token.sessionID,
            StoreValue.time(token.issuedAt), StoreValue.time(token.expiresAt),
            StoreValue.time(token.rotatedAt), StoreValue.time(token.revokedAt),
            try token.claims.map(StoreValue.json), token.dpopJKT, ResourceColumn.value(token.resources),
        ]
        try await statement("refresh_tokens.insert", values) { slots in
            database.insert(into: "refresh_tokens")
                .columns(
                    "token_digest", "family_id", "client_id", "user_id", "scope", "authentication",
                    "session_id", "issued_at", "expires_at", "rotated_at", "revoked_at", "claims_request", "dpop_jkt",
                    "resources"
                )
                .values(slots)
                .query
        }.run()
    }

    /// One statement per rotation: `INSERT … SELECT` writes the successor, copying family,
    /// client, scope, authentication and the claims request from the presented token, and links
    /// it through `parent_digest`. The unique index on `parent_digest` lets only one successor exist, so
    /// of two concurrent rotations exactly one inserts a row and the other, finding none
    /// returned, sees a replay (the same claim technique as `redeemAuthorizationCode`).
    /// A token is rotated once it has a successor (or, for rows older than the link, once
    /// `rotated_at` was set). A token whose family was revoked cannot rotate even if it was
    /// inserted after the revocation (a successor issued concurrently with a replay).
    public func rotateRefreshToken(digest: String, into successor: RefreshTokenSuccessor) async throws
        -> RedemptionResult<RefreshTokenRecord>
    {
        let won = try await refreshRotation.filled(
            with: [
                successor.tokenDigest, StoreValue.time(successor.issuedAt),
                StoreValue.time(successor.expiresAt), digest,
            ],
            on: database
        ).first()
        if let won { return .redeemed(try successorRecord(won, successor)) }
        // Lost: unknown, expired, or already rotated/revoked (a replay).
        guard let record = try await refreshToken(digest: digest) else { return .notFound }
        if record.expiresAt <= successor.issuedAt { return .notFound }
        return .replayed(record)
    }

    /// The rotation statement, serialized once per store (``StatementTemplateCache``). Slots:
    /// 0 successor digest, 1 now, 2 successor expiry, 3 presented digest.
    var refreshRotation: StatementTemplate {
        templates.template("refresh_tokens.rotate", database: database, slots: 4) { slot in
            let inherited = Self.inheritedColumns
            let columns = ["token_digest", "parent_digest"] + inherited + ["issued_at", "expires_at"]
            let familyNotRevoked = SQLRaw(
                "NOT EXISTS (SELECT 1 FROM revoked_refresh_families WHERE revoked_refresh_families.family_id = refresh_tokens.family_id)"
            )
            let insert = database.insert(into: "refresh_tokens").columns(columns).select { select in
                select.column(slot[0]).column("token_digest").columns(inherited)
                    .column(slot[1]).column(slot[2])
                    .from("refresh_tokens")
                    .where(SQLIdentifier("token_digest"), .equal, slot[3])
                    .where("rotated_at", .is, SQLLiteral.null)
                    .where("revoked_at", .is, SQLLiteral.null)
                    .where(SQLIdentifier("expires_at"), .greaterThan, slot[1])
                    .where(familyNotRevoked)
            }
            // Any conflict: the successor index is partial, and a conflict target would have
            // to repeat its predicate. The other unique key, a fresh random digest, cannot collide.
            return insert.ignoringConflicts()
                .returning(Self.inheritedColumns.map { SQLColumn($0) })
                .query
        }
    }

    /// The columns a successor copies from the token it replaces, and all the rotation
    /// statement returns: the caller already knows the rest (``successorRecord(_:_:)``).
    static let inheritedColumns = [
        "family_id", "client_id", "user_id", "scope", "authentication", "session_id", "claims_request", "dpop_jkt",
        "resources",
    ]

    /// The successor a rotation inserted, from the inherited columns it returned.
    private func successorRecord(_ row: any SQLRow, _ successor: RefreshTokenSuccessor) throws
        -> RefreshTokenRecord
    {
        var record = RefreshTokenRecord(
            tokenDigest: successor.tokenDigest,
            familyID: try row.string("family_id"),
            clientID: try row.string("client_id"),
            scope: try row.string("scope"),
            authentication: try authentications.value(of: row.string("authentication"), column: "authentication"),
            sessionID: try row.optionalString("session_id"),
            issuedAt: successor.issuedAt,
            expiresAt: successor.expiresAt,
            rotatedAt: nil, revokedAt: nil,
            claims: try row.optionalJSON("claims_request", as: ClaimsRequest.self),
            dpopJKT: try row.optionalString("dpop_jkt"))
        record.resources = ResourceColumn.resources(try row.optionalString("resources"))
        return record
    }

    public func withdrawRefreshToken(successorDigest: String) async throws {
        try await database.delete(from: "refresh_tokens")
            .where("token_digest", .equal, successorDigest)
            .where("parent_digest", .isNot, SQLLiteral.null)
            .run()
    }

    /// The token and, from its successor if it has one, when it was rotated.
    public func refreshToken(digest: String) async throws -> RefreshTokenRecord? {
        try await database.raw(
            """
            SELECT token.*, successor.issued_at AS successor_issued_at
            FROM refresh_tokens AS token
            LEFT JOIN refresh_tokens AS successor ON successor.parent_digest = token.token_digest
            WHERE token.token_digest = \(bind: digest)
            """
        )
        .first()
        .map { row in
            var record = try Self.refreshRecord(row)
            if record.rotatedAt == nil { record.rotatedAt = try row.optionalDate("successor_issued_at") }
            return record
        }
    }

    public func revokeRefreshFamily(
        _ familyID: String, now: Date, reason: RefreshFamilyRevocationReason
    ) async throws {
        try await revokeFamilies(ids: [familyID], now: now, reason: reason)
    }

    public func refreshFamilyRevocationReason(_ familyID: String) async throws -> RefreshFamilyRevocationReason? {
        let reason = try await database.select().column("reason").from("revoked_refresh_families")
            .where("family_id", .equal, familyID)
            .first(decodingColumn: "reason", as: String?.self) ?? nil
        return reason.flatMap(RefreshFamilyRevocationReason.init(rawValue:))
    }

    public func isRefreshFamilyRevoked(_ familyID: String) async throws -> Bool {
        try await selectAll(from: "revoked_refresh_families", where: "family_id", equals: familyID).first() != nil
    }

    public func liveRefreshFamilies(userID: String, now: Date) async throws -> [LiveRefreshFamily] {
        // The user's roots not revoked (the partial index of live roots on user_id, so dead
        // families cost nothing however many there are), each joined with its members (the
        // family_id index) for the newest issue and the latest expiry. `NOT EXISTS` still
        // decides: a revocation records the family before it stamps the rows.
        // A template: every sign-in runs it (the session cap).
        let rows = try await statement("refresh_tokens.live_families", [userID, StoreValue.time(now)]) { slots in
            SQLQueryString(
                """
                SELECT root.family_id AS family_id, root.client_id AS client_id, MAX(member.issued_at) AS last_used
                FROM refresh_tokens AS root JOIN refresh_tokens AS member ON member.family_id = root.family_id
                WHERE root.user_id = \(slots[0]) AND root.parent_digest IS NULL AND root.revoked_at IS NULL
                  AND NOT EXISTS (SELECT 1 FROM revoked_refresh_families AS revoked WHERE revoked.family_id = root.family_id)
                GROUP BY root.family_id, root.client_id
                HAVING MAX(member.expires_at) > \(slots[1])
                """)
        }.all()
        return try rows.map { row in
            LiveRefreshFamily(
                familyID: try row.string("family_id"), clientID: try row.string("client_id"),
                lastUsed: try row.date("last_used"))
        }
    }

    /// Logout (OIDC RP-Initiated Logout §2, Back-Channel Logout) or the end of a PIN
    /// registration: revokes the families of every refresh token issued under the session.
    public func revokeRefreshTokens(sessionID: String, now: Date, reason: RefreshFamilyRevocationReason) async throws {
        try await revokeFamilies(ids: families(matching: "session_id", sessionID), now: now, reason: reason)
    }

    /// The families whose root's `column` (one of ``StoreMigrations/familyOwnerColumns``) equals `value`.
    func families(matching column: String, _ value: String) async throws -> [String] {
        try await rootFamilies(matching: column, value).all(decodingColumn: "family_id", as: String.self)
    }

    /// Revokes the families of every refresh token whose `column` equals `value`.
    func revokeFamilies(matching column: String, _ value: String, now: Date) async throws {
        try await revokeFamilies(ids: families(matching: column, value), now: now)
    }

    /// Deletes every token of the families whose root's `column` equals `value`.
    func deleteFamilies(matching column: String, _ value: String) async throws {
        try await database.delete(from: "refresh_tokens")
            .where(SQLIdentifier("family_id"), .in, SQLGroupExpression(rootFamilies(matching: column, value).select))
            .run()
    }

    /// `SELECT DISTINCT family_id` of the roots whose `column` equals `value`: the lookup the
    /// partial root indexes serve (`parent_digest IS NULL` must be in the query to use them).
    private func rootFamilies(matching column: String, _ value: String) -> SQLSelectBuilder {
        precondition(StoreMigrations.familyOwnerColumns.contains(column))
        return database.select().distinct().column("family_id")
            .from("refresh_tokens")
            .where(SQLIdentifier(column), .equal, value)
            .where("parent_digest", .is, SQLLiteral.null)
    }

    /// Records each family as revoked (kept until its last token expires) with the reason (an
    /// earlier reason stays), then marks their tokens (``stampRevoked(_:now:)``).
    func revokeFamilies(
        ids: [String], now: Date, reason: RefreshFamilyRevocationReason = .signedOut
    ) async throws {
        for familyID in ids {
            // Templates (``StatementTemplateCache``): logout, sign-out everywhere and reuse
            // detection run these for every family they end.
            let latest = try await statement("refresh_tokens.family_latest_expiry", [familyID]) { slots in
                database.select()
                    .column(SQLFunction("MAX", args: SQLIdentifier("expires_at")), as: "latest")
                    .from("refresh_tokens")
                    .where("family_id", .equal, slots[0])
                    .query
            }.first(decodingColumn: "latest", as: Double?.self) ?? nil
            // Access tokens minted from the family may outlive its refresh tokens slightly.
            let keepUntil = max(latest ?? 0, StoreValue.time(now)) + Self.revokedFamilyRetention
            try await statement(
                "revoked_refresh_families.upsert", [familyID, StoreValue.time(now), keepUntil, reason.rawValue]
            ) { slots in
                database.insert(into: "revoked_refresh_families")
                    .columns("family_id", "revoked_at", "expires_at", "reason")
                    .values(slots)
                    .onConflict(with: ["family_id"]) { $0.set(excludedValueOf: "expires_at") }
                    .query
            }.run()
        }
        try await stampRevoked(ids, now: now)
    }

    public func revokeLiveRefreshFamilies(
        _ familyIDs: [String], now: Date, reason: RefreshFamilyRevocationReason
    ) async throws -> Set<String> {
        var revoked: Set<String> = []
        for chunk in Self.chunked(familyIDs) {
            // The claim: one row per family that still has tokens, kept as long as its newest
            // token (at least from now) plus the retention; a family recorded already (by a
            // concurrent call, or earlier) conflicts and is not returned.
            let nowValue = StoreValue.time(now)
            let latest = SQLFunction("MAX", args: SQLIdentifier("expires_at"))
            let keepUntil = SQLQueryString(
                "CASE WHEN \(latest) > \(bind: nowValue) THEN \(latest) ELSE \(bind: nowValue) END + \(bind: Self.revokedFamilyRetention)")
            let claimed = try await database.insert(into: "revoked_refresh_families")
                .columns("family_id", "revoked_at", "expires_at", "reason")
                .select { select in
                    select.column("family_id").column(SQLBind(nowValue)).column(keepUntil).column(SQLBind(reason.rawValue))
                        .from("refresh_tokens")
                        .where(SQLIdentifier("family_id"), .in, chunk)
                        .groupBy("family_id")
                }
                .ignoringConflicts(with: ["family_id"])
                .returning(SQLColumn("family_id"))
                .all(decodingColumn: "family_id", as: String.self)
            revoked.formUnion(claimed)
        }
        try await stampRevoked(Array(revoked), now: now)
        return revoked
    }

    /// Marks the tokens of families already recorded as revoked (the record decides; the mark
    /// keeps revoked roots out of the live-roots index): one statement per chunk of families.
    private func stampRevoked(_ familyIDs: [String], now: Date) async throws {
        for chunk in Self.chunked(familyIDs) {
            try await database.update("refresh_tokens")
                .set("revoked_at", to: StoreValue.time(now))
                .where(SQLIdentifier("family_id"), .in, chunk)
                .where("revoked_at", .is, SQLLiteral.null)
                .run()
        }
    }

    /// `familyIDs` in runs of ``familiesPerStatement``: the IN lists stay far below SQLite's
    /// limit of bound values.
    private static func chunked(_ familyIDs: [String]) -> [[String]] {
        stride(from: 0, to: familyIDs.count, by: familiesPerStatement).map {
            Array(familyIDs[$0..<min($0 + familiesPerStatement, familyIDs.count)])
        }
    }

    /// Families per statement of ``revokeLiveRefreshFamilies(_:now:reason:)`` and ``stampRevoked(_:now:)``.
    static let familiesPerStatement = 200

    /// How long a revoked family is remembered after its last refresh token expires (covers
    /// access tokens minted from it; longer than any sane access-token lifetime).
    static let revokedFamilyRetention: TimeInterval = 24 * 3600

    static func refreshRecord(_ row: any SQLRow) throws -> RefreshTokenRecord {
        var record = RefreshTokenRecord(
            tokenDigest: try row.string("token_digest"),
            familyID: try row.string("family_id"),
            clientID: try row.string("client_id"),
            scope: try row.string("scope"),
            authentication: try row.json("authentication", as: AuthenticationContext.self),
            sessionID: try row.optionalString("session_id"),
            issuedAt: try row.date("issued_at"),
            expiresAt: try row.date("expires_at"),
            rotatedAt: try row.optionalDate("rotated_at"),
            revokedAt: try row.optionalDate("revoked_at"),
            claims: try row.optionalJSON("claims_request", as: ClaimsRequest.self),
            dpopJKT: try row.optionalString("dpop_jkt"))
        record.resources = ResourceColumn.resources(try row.optionalString("resources"))
        return record
    }
}

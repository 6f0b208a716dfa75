import Foundation
import SQLKit

// Browser SSO sessions and access-token revocation entries.
extension SQLIdentityStore {
    public func insertBrowserSession(_ session: BrowserSessionRecord) async throws {
        try await database.insert(into: "browser_sessions")
            .columns("id_digest", "sid", "user_id", "authentication", "created_at", "expires_at")
            .values(
                session.idDigest, session.sid, session.authentication.userID,
                try StoreValue.json(session.authentication), StoreValue.time(session.createdAt),
                StoreValue.time(session.expiresAt)
            )
            .run()
    }

    /// The session, expired or not: callers compare `expiresAt` with their clock.
    public func browserSession(idDigest: String) async throws -> BrowserSessionRecord? {
        guard
            let row = try await selectAll(from: "browser_sessions", where: "id_digest", equals: idDigest).first()
        else { return nil }
        return BrowserSessionRecord(
            idDigest: try row.string("id_digest"),
            sid: try row.string("sid"),
            authentication: try row.json("authentication", as: AuthenticationContext.self),
            createdAt: try row.date("created_at"),
            expiresAt: try row.date("expires_at"))
    }

    public func removeBrowserSession(idDigest: String) async throws {
        try await database.delete(from: "browser_sessions").where("id_digest", .equal, idDigest).run()
    }

    public func removeBrowserSession(sid: String) async throws {
        try await database.delete(from: "browser_sessions").where("sid", .equal, sid).run()
    }

    // MARK: Access-token revocation (RFC 7009 §2.2 for self-contained access tokens)

    /// Remembers the `jti` until the token would have expired anyway.
    public func revokeAccessToken(jti: String, expiresAt: Date) async throws {
        try await database.insert(into: "revoked_access_tokens")
            .columns("jti", "expires_at")
            .values(jti, StoreValue.time(expiresAt))
            .ignoringConflicts(with: "jti")
            .run()
    }

    public func isAccessTokenRevoked(jti: String) async throws -> Bool {
        try await selectAll(from: "revoked_access_tokens", where: "jti", equals: jti).first() != nil
    }

    /// Both checks of a presented access token in one statement: its `jti` revoked (RFC 7009),
    /// or its refresh family revoked (reuse detection, logout). One round trip to the database
    /// instead of two on every request that carries a token.
    public func isAccessTokenWithdrawn(jti: String, familyID: String?) async throws -> Bool {
        guard let familyID else { return try await isAccessTokenRevoked(jti: jti) }
        let row = try await database.raw(
            """
            SELECT CASE WHEN EXISTS (SELECT 1 FROM revoked_access_tokens WHERE jti = \(bind: jti))
              OR EXISTS (SELECT 1 FROM revoked_refresh_families WHERE family_id = \(bind: familyID))
              THEN 1 ELSE 0 END AS withdrawn
            """
        ).first()
        return try row?.decode(column: "withdrawn", as: Int.self) == 1
    }

    // MARK: Maintenance

    public func purgeExpired(now: Date) async throws {
        try await purgeThrottleCounters(now: now)
        try await purgeRateWindows(now: now)
        try await purgeRedeemedChallenges(now: now)
        try await purgeNativeSSO(now: now)
        try await purgePushedRequests(now: now)
        try await purgeInitialAccessTokens(now: now)
        try await purgePendingAuthorizations(now: now)
        try await purgeDPoPProofs(now: now)
        try await purgeDeviceAuthorizations(now: now)
        let cutoff = StoreValue.time(now)
        for table in [
            "authorization_codes", "revoked_refresh_families", "revoked_access_tokens", "browser_sessions",
            "used_federated_tokens",
        ] {
            try await database.delete(from: table).where("expires_at", .lessThanOrEqual, cutoff).run()
        }
        // A refresh token is rotated because its successor exists (`parent_digest`): an expired
        // successor stays while the token it replaced is still valid, or that token would look
        // unused and could be rotated again. A family's root stays while any of its tokens is
        // valid: the family is found by user, session and client through it (migration 4).
        try await database.delete(from: "refresh_tokens")
            .where("expires_at", .lessThanOrEqual, cutoff)
            .where(
                "NOT EXISTS (SELECT 1 FROM refresh_tokens AS parent WHERE parent.token_digest = refresh_tokens.parent_digest AND parent.expires_at > \(bind: cutoff))"
                    as SQLQueryString)
            .where(
                "NOT (parent_digest IS NULL AND EXISTS (SELECT 1 FROM refresh_tokens AS member WHERE member.family_id = refresh_tokens.family_id AND member.expires_at > \(bind: cutoff)))"
                    as SQLQueryString)
            .run()
    }
}

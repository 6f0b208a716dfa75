import Foundation
import SesameProtocol

/// Everything the server persists, behind one interface. Implemented once with SQLKit
/// (``SQLIdentityStore``), which serves SQLite (embedded default) and PostgreSQL alike: nothing
/// above this protocol may assume a particular database.
///
/// All operations are atomic; redemption methods decide "first use or replay" inside one
/// transaction / conditional update so that two concurrent redemptions cannot both win.
public protocol IdentityStore: Sendable {
    // MARK: Clients
    /// Throws ``StoreError/conflict(field:)`` (`client_id`) for an id that is a user's: client
    /// ids and user subjects never collide, whichever came first.
    func upsertClient(_ client: ClientRecord) async throws
    func client(id: String) async throws -> ClientRecord?
    func clients() async throws -> [ClientRecord]
    /// `true` when a client was removed.
    @discardableResult func removeClient(id: String) async throws -> Bool

    // MARK: APIs (RFC 8707 resources)
    /// Registers an API or changes a registered one (its `createdAt` is kept).
    func upsertAPI(_ api: APIRecord) async throws
    func api(identifier: String) async throws -> APIRecord?
    /// Every registered API, by identifier.
    func apis() async throws -> [APIRecord]
    /// `true` when an API was removed. Tokens issued for it stay valid until they expire; new
    /// ones are not issued for it.
    @discardableResult func removeAPI(identifier: String) async throws -> Bool

    // MARK: Users
    /// Throws ``StoreError/conflict(field:)`` for a taken username or email, and for a
    /// username that is another user's email or an email that is another user's username (a
    /// login name must name one account); `id` for an id that is a client's.
    func createUser(_ user: UserRecord) async throws
    func updateUser(_ user: UserRecord) async throws
    /// Sets the user's password hash to `new` if it is still `old`: the same password hashed again
    /// at a higher cost after a sign-in. A password changed or reset meanwhile wins; nothing else
    /// of the user (nor `updated_at`) changes.
    func replacePasswordHash(userID: String, _ old: String, with new: String) async throws
    func user(id: String) async throws -> UserRecord?
    /// Looks a user up by login name, case-insensitively: the user whose username it is, else
    /// the user whose email it is. A username never equals another user's email (``createUser(_:)``
    /// refuses it), so at most one account answers to a login name.
    func user(login: String) async throws -> UserRecord?
    /// The user whose email (not username) is `email`, case-insensitively.
    func user(email: String) async throws -> UserRecord?
    func users() async throws -> [UserRecord]
    @discardableResult func removeUser(id: String) async throws -> Bool

    // MARK: Changes of other processes
    /// Calls `observer` with the changes other processes of the deployment announce.
    func observeChanges(_ observer: @escaping @Sendable (StoreChange) -> Void)

    // MARK: Signing keys
    func insertSigningKey(_ key: SigningKeyRecord) async throws
    func updateSigningKey(_ key: SigningKeyRecord) async throws
    func signingKeys() async throws -> [SigningKeyRecord]
    func removeSigningKey(kid: String) async throws

    // MARK: Authorization codes
    func insertAuthorizationCode(_ code: AuthorizationCodeRecord) async throws
    /// Atomically marks the code consumed at `now`. Expired codes are `.notFound`.
    func redeemAuthorizationCode(digest: String, now: Date) async throws
        -> RedemptionResult<AuthorizationCodeRecord>
    /// Records which refresh-token family a redeemed code produced (for replay revocation).
    func setAuthorizationCodeFamily(digest: String, familyID: String) async throws

    // MARK: Refresh tokens
    func insertRefreshToken(_ token: RefreshTokenRecord) async throws
    /// Atomically replaces the token with `successor` (one write: the successor, linked to the
    /// token it replaces) and returns the successor's record. Expired or unknown tokens are
    /// `.notFound`; a token already rotated or revoked, or of a revoked family, is `.replayed`
    /// so the caller revokes the family.
    func rotateRefreshToken(digest: String, into successor: RefreshTokenSuccessor) async throws
        -> RedemptionResult<RefreshTokenRecord>
    /// Undoes a rotation whose response was not sent (the request was refused after the
    /// rotation): deletes the successor, so the token it replaced is current again.
    func withdrawRefreshToken(successorDigest: String) async throws
    func refreshToken(digest: String) async throws -> RefreshTokenRecord?
    /// Revokes every token of the family, recording why (the first reason is kept).
    func revokeRefreshFamily(_ familyID: String, now: Date, reason: RefreshFamilyRevocationReason) async throws
    /// Revokes those of `familyIDs` that are not revoked yet, with `reason`, and returns them:
    /// of concurrent calls naming the same family exactly one returns it, so a family evicted by
    /// several sign-ins at once is revoked, and audited, once. Two statements for any number of
    /// families (a family with no token left is not recorded: nothing of it can be used).
    func revokeLiveRefreshFamilies(_ familyIDs: [String], now: Date, reason: RefreshFamilyRevocationReason)
        async throws -> Set<String>
    /// `true` when the family has been revoked (access tokens of that family are then inactive).
    func isRefreshFamilyRevoked(_ familyID: String) async throws -> Bool
    /// Why the family was revoked, or `nil` when it was not (or before the reason was recorded).
    func refreshFamilyRevocationReason(_ familyID: String) async throws -> RefreshFamilyRevocationReason?
    /// The user's live refresh-token families (not revoked, with a token not yet expired), each
    /// with its client and when it was last used (its newest token's issue time).
    func liveRefreshFamilies(userID: String, now: Date) async throws -> [LiveRefreshFamily]
    /// Revokes every refresh token issued under a session (logout, a PIN registration's end),
    /// recording why.
    func revokeRefreshTokens(sessionID: String, now: Date, reason: RefreshFamilyRevocationReason) async throws

    // MARK: Access-token revocation (RFC 7009 for JWT access tokens)
    func revokeAccessToken(jti: String, expiresAt: Date) async throws
    func isAccessTokenRevoked(jti: String) async throws -> Bool
    /// Whether a presented access token was withdrawn: its `jti` revoked, or its refresh
    /// family (`familyID`, when it has one) revoked. One statement for both.
    func isAccessTokenWithdrawn(jti: String, familyID: String?) async throws -> Bool

    // MARK: Browser sessions
    func insertBrowserSession(_ session: BrowserSessionRecord) async throws
    func browserSession(idDigest: String) async throws -> BrowserSessionRecord?
    func removeBrowserSession(idDigest: String) async throws
    func removeBrowserSession(sid: String) async throws

    // MARK: Maintenance
    /// Deletes expired codes, tokens, sessions and revocation entries.
    func purgeExpired(now: Date) async throws

    /// Runs `body` unless another process of the deployment is running the job named `job`
    /// (PostgreSQL: a session-level advisory lock; SQLite has one process). `false` when it
    /// was skipped because another process holds it.
    func runExclusively(_ job: String, _ body: @escaping @Sendable () async throws -> Void) async throws -> Bool

    // MARK: Readiness
    /// The schema version the database is at, after checking that it answers; throws
    /// ``StoreError/unavailable(reason:)`` when it does not, or when its migrations are not the
    /// ones this Sesame runs (behind: another process is migrating; ahead: a newer Sesame).
    func readySchemaVersion() async throws -> Int

    /// Closes connections; the store is unusable afterwards.
    func close() async throws
}

extension IdentityStore {
    /// Logout (OIDC RP-Initiated Logout §2): revokes every refresh token issued under the session.
    public func revokeRefreshTokens(sessionID: String, now: Date) async throws {
        try await revokeRefreshTokens(sessionID: sessionID, now: now, reason: .signedOut)
    }
}

extension IdentityStore {
    /// Calls `observer` with the changes other processes announce (``StoreChange``); stores
    /// that serve one process never call it.
    public func observeChanges(_ observer: @escaping @Sendable (StoreChange) -> Void) {}
}

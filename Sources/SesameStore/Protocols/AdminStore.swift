import Foundation

/// What the admin API and console keep beyond the users themselves (issue #47): operators'
/// roles, disabled accounts, and the search index over users.
public protocol AdminStore: Sendable {
    /// Grants `role` to the user, or to a client acting for itself (`userID` a client id: its
    /// `client_credentials` tokens, for automation), replacing another; `nil` takes it away.
    func setAdminRole(_ role: AdminRole?, userID: String, grantedBy: String?, at: Date) async throws
    func adminRole(userID: String) async throws -> AdminRole?
    /// Every operator, by role then user id.
    func adminRoles() async throws -> [AdminRoleRecord]
    /// A process's heartbeat (insert or update by id); rows not seen for a day are deleted.
    func recordHeartbeat(_ process: ServerProcessRecord) async throws
    /// The processes seen at or after `since`, oldest start first.
    func processes(seenSince since: Date) async throws -> [ServerProcessRecord]
    /// Users whose username, email, name or subject starts with the prefix (case-insensitive).
    func searchUsers(_ search: UserSearch) async throws -> UserSearchPage
    /// Disables the user at `at`, or enables them with `nil`; `false` when there is no such user.
    /// A disabled user cannot sign in or refresh (the provider checks ``UserRecord/disabledAt``).
    @discardableResult
    func setUserDisabled(id: String, at: Date?) async throws -> Bool
    /// How many users there are (the console's home page).
    func userCount() async throws -> Int
    /// How many browser sessions have not expired at `now` (the console's home page).
    func liveBrowserSessionCount(now: Date) async throws -> Int
}

/// A running server process as it last reported itself (``AdminStore/recordHeartbeat(_:)``).
public struct ServerProcessRecord: Sendable, Equatable {
    /// Random, per process start.
    public var id: String
    public var host: String
    public var pid: Int
    public var startedAt: Date
    public var lastSeen: Date

    public init(id: String, host: String, pid: Int, startedAt: Date, lastSeen: Date) {
        self.id = id
        self.host = host
        self.pid = pid
        self.startedAt = startedAt
        self.lastSeen = lastSeen
    }
}

import Foundation

/// `GET /admin/api/overview?window=hour|day|month` (issue #47): what the console's home page
/// shows an operator at a glance, from the audit log and the store. Times are seconds since 1970.
public struct AdminOverview: Codable, Sendable, Equatable {
    /// `hour` (5-minute intervals), `day` (hours) or `month` (days).
    public var window: String
    /// The start of the first interval.
    public var since: Int
    /// Each interval's length in seconds.
    public var intervalSeconds: Int
    /// One count per interval for each of: `sign_ins`, `failures`, `lockouts`, `new_users`.
    public var series: [AdminSeries]
    /// The failed sign-ins of the window by reason (`invalid_credentials`, `account_disabled`…),
    /// most frequent first.
    public var failureReasons: [AdminReasonCount]
    /// How many users there are.
    public var users: Int
    /// How many browser sessions are live.
    public var liveSessions: Int
    /// The database answered (it did, or this would be an error) and the signing keys' ages.
    public var health: AdminHealth

    /// A value with every member given.
    public init(
        window: String, since: Int, intervalSeconds: Int, series: [AdminSeries], failureReasons: [AdminReasonCount],
        users: Int, liveSessions: Int, health: AdminHealth
    ) {
        self.window = window
        self.since = since
        self.intervalSeconds = intervalSeconds
        self.series = series
        self.failureReasons = failureReasons
        self.users = users
        self.liveSessions = liveSessions
        self.health = health
    }

    enum CodingKeys: String, CodingKey {
        case window, since, series, users, health
        case intervalSeconds = "interval_seconds"
        case failureReasons = "failure_reasons"
        case liveSessions = "live_sessions"
    }
}

/// One line of a chart: a name and a count per interval.
public struct AdminSeries: Codable, Sendable, Equatable {
    /// `sign_ins`, `failures`, `lockouts` or `new_users`.
    public var name: String
    /// One count per interval, oldest first.
    public var counts: [Int]

    /// A series of `counts`.
    public init(name: String, counts: [Int]) {
        self.name = name
        self.counts = counts
    }

    /// The sum over the window.
    public var total: Int { counts.reduce(0, +) }
}

/// How often something happened for one reason.
public struct AdminReasonCount: Codable, Sendable, Equatable {
    /// The audit record's reason.
    public var reason: String
    /// How many records gave it.
    public var count: Int

    /// A count of `reason`.
    public init(reason: String, count: Int) {
        self.reason = reason
        self.count = count
    }
}

/// The server's health as the console shows it.
public struct AdminHealth: Codable, Sendable, Equatable {
    /// `ok` when the database answered.
    public var database: String
    /// The age in seconds of the newest key that signs, per algorithm.
    public var signingKeyAges: [String: Int]
    /// The server processes seen in the last 45 seconds (their heartbeats), oldest start first.
    public var processes: [AdminProcess]

    /// A health of `database`, `signingKeyAges` and `processes`.
    public init(database: String, signingKeyAges: [String: Int], processes: [AdminProcess] = []) {
        self.database = database
        self.signingKeyAges = signingKeyAges
        self.processes = processes
    }

    enum CodingKeys: String, CodingKey {
        case database
        case signingKeyAges = "signing_key_ages"
        case processes
    }
}

/// A running server process, as its heartbeat says (seconds since 1970).
public struct AdminProcess: Codable, Sendable, Equatable {
    /// The host name.
    public var host: String
    /// The process id on that host.
    public var pid: Int
    /// When it started.
    public var startedAt: Int
    /// Its last heartbeat.
    public var lastSeen: Int

    /// A process with every member given.
    public init(host: String, pid: Int, startedAt: Int, lastSeen: Int) {
        self.host = host
        self.pid = pid
        self.startedAt = startedAt
        self.lastSeen = lastSeen
    }

    enum CodingKeys: String, CodingKey {
        case host, pid
        case startedAt = "started_at"
        case lastSeen = "last_seen"
    }
}

import Foundation

/// One security decision in the audit log (``AuditStore``): who, from where, through which
/// client, what was decided and why. Never holds a secret: no password, code, token, nonce or
/// challenge token, only identifiers (a user id, a client id, a request id) and reasons.
public struct AuditRecord: Sendable, Equatable, Codable {
    /// A random identifier, unique per record.
    public var id: String
    public var time: Date
    /// What happened, `area.outcome`, e.g. `sign_in.failed` (``AuditEvent`` in the server).
    public var event: String
    /// Why, when the event has a reason, e.g. `invalid_credentials` or `expired`.
    public var reason: String?
    /// The client address as the server keys it (an IPv6 /64 prefix, behind a trusted proxy the
    /// client it names); `nil` for the CLI and Unix sockets.
    public var clientAddress: String?
    public var clientID: String?
    /// The user the decision is about (the subject identifier), when known.
    public var userID: String?
    /// The request's id, as in the request log line and the `error_id`-bearing answers.
    public var requestID: String?
    /// Further facts (difficulty, counts, the admin command), never a secret.
    public var detail: [String: String]

    public init(
        id: String = UUID().uuidString.lowercased(), time: Date, event: String, reason: String? = nil,
        clientAddress: String? = nil, clientID: String? = nil, userID: String? = nil, requestID: String? = nil,
        detail: [String: String] = [:]
    ) {
        self.id = id
        self.time = time
        self.event = event
        self.reason = reason
        self.clientAddress = clientAddress
        self.clientID = clientID
        self.userID = userID
        self.requestID = requestID
        self.detail = detail
    }

    enum CodingKeys: String, CodingKey {
        case id, time, event, reason
        case clientAddress = "client_address"
        case clientID = "client_id"
        case userID = "user_id"
        case requestID = "request_id"
        case detail
    }
}

/// Which audit records to read (``AuditStore/auditRecords(_:)``): every condition given must hold.
public struct AuditQuery: Sendable, Equatable {
    /// Only records about this user id.
    public var userID: String?
    /// Only records at or after this time.
    public var since: Date?
    /// Only these events; an entry ending in `.` is a prefix (`sign_in.` is every sign-in event).
    public var events: [String]
    /// At most this many, the newest ones.
    public var limit: Int

    public init(userID: String? = nil, since: Date? = nil, events: [String] = [], limit: Int = 1000) {
        self.userID = userID
        self.since = since
        self.events = events
        self.limit = limit
    }
}

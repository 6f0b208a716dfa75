import Foundation
import SesameProtocol

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
    /// The store's number of the record, in the order records were written (`nil` before it is
    /// written); the admin API pages with it.
    public var sequence: Int64?

    /// The same record: every fact equal, wherever it was read from (``sequence`` is the
    /// store's bookkeeping, not part of the record).
    public static func == (lhs: AuditRecord, rhs: AuditRecord) -> Bool {
        lhs.id == rhs.id && lhs.time == rhs.time && lhs.event == rhs.event && lhs.reason == rhs.reason
            && lhs.clientAddress == rhs.clientAddress && lhs.clientID == rhs.clientID && lhs.userID == rhs.userID
            && lhs.requestID == rhs.requestID && lhs.detail == rhs.detail
    }

    public init(
        id: String? = nil, time: Date, event: String, reason: String? = nil,
        clientAddress: String? = nil, clientID: String? = nil, userID: String? = nil, requestID: String? = nil,
        detail: [String: String] = [:], sequence: Int64? = nil
    ) {
        // A new random (v4) UUID when none is given.
        self.id = id ?? SecureRandom.uuid()
        self.time = time
        self.event = event
        self.reason = reason
        self.clientAddress = clientAddress
        self.clientID = clientID
        self.userID = userID
        self.requestID = requestID
        self.sequence = sequence
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
    /// Only records before this time.
    public var until: Date?
    /// Only these events; an entry ending in `.` is a prefix (`sign_in.` is every sign-in event).
    public var events: [String]
    /// Only records of this client.
    public var clientID: String?
    /// Only records from this client address (as keyed: IPv4, or an IPv6 /64).
    public var clientAddress: String?
    /// Only records written before the one with this ``AuditRecord/sequence`` (the next page of
    /// the admin API); with it, records are in the order they were written.
    public var beforeSequence: Int64?
    /// At most this many, the newest ones.
    public var limit: Int

    public init(
        userID: String? = nil, since: Date? = nil, until: Date? = nil, events: [String] = [], clientID: String? = nil,
        clientAddress: String? = nil, beforeSequence: Int64? = nil, limit: Int = 1000
    ) {
        self.userID = userID
        self.since = since
        self.until = until
        self.events = events
        self.clientID = clientID
        self.clientAddress = clientAddress
        self.beforeSequence = beforeSequence
        self.limit = limit
    }
}

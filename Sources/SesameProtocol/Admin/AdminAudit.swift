import Foundation

/// One audit record as the admin API shows it (`GET /admin/api/audit`): a security decision or
/// an administrative change, never a secret.
public struct AdminAuditRecord: Codable, Sendable, Equatable {
    /// Seconds since 1970.
    public var time: Double
    /// What happened, `area.outcome` (e.g. `sign_in.failed`, `admin.user_disabled`).
    public var event: String
    /// Why, when the event has a reason.
    public var reason: String?
    /// The client address as the server keys it (IPv4, or an IPv6 /64).
    public var clientAddress: String?
    /// The client the request came from.
    public var clientID: String?
    /// The user the decision is about.
    public var userID: String?
    /// The request's id, as in the server's log line.
    public var requestID: String?
    /// Further facts (for an administrative change: `actor`, the operator's user id, and `role`).
    public var detail: [String: String]

    /// A record with every member given.
    public init(
        time: Double, event: String, reason: String?, clientAddress: String?, clientID: String?, userID: String?,
        requestID: String?, detail: [String: String]
    ) {
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
        case time, event, reason, detail
        case clientAddress = "client_address"
        case clientID = "client_id"
        case userID = "user_id"
        case requestID = "request_id"
    }
}

/// `GET /admin/api/audit`: the newest matching records first, and where the next (older) page
/// starts.
public struct AdminAuditPage: Codable, Sendable, Equatable {
    /// The records, newest first.
    public var records: [AdminAuditRecord]
    /// Pass as `cursor` for older records; absent on the last page.
    public var nextCursor: String?

    /// A page of `records`.
    public init(records: [AdminAuditRecord], nextCursor: String?) {
        self.records = records
        self.nextCursor = nextCursor
    }

    enum CodingKeys: String, CodingKey {
        case records
        case nextCursor = "next_cursor"
    }
}

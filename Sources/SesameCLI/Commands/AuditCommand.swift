import ArgumentParser
import Foundation
import SesameServer

/// `sesame audit`: the security decisions the server recorded (sign-ins, lockouts, second
/// factors, refresh-token reuse, revocations, challenges, rate limiting, admin changes), oldest
/// first, from the data store every server process shares.
struct AuditCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audit",
        abstract: "Show the audit log of security decisions.",
        discussion: """
            Records never hold a password, code, token or secret. Works while the server runs (records \
            reach the store within a second). Examples: sesame audit --since 1h; sesame audit --user alice \
            --event sign_in.; sesame audit --event challenge.refused --json
            """)

    @Option(help: "Only records about this user: a username, an email address or a user id.") var user: String?
    @Option(
        help: ArgumentHelp(
            "Only records since then: a duration back from now (90s, 15m, 1h, 7d) or an ISO 8601 time.",
            valueName: "time"))
    var since: String?
    @Option(
        name: .customLong("event"),
        help: ArgumentHelp(
            "Only this event (repeatable); a name ending in '.' selects an area, e.g. sign_in. or challenge.",
            valueName: "event"))
    var events: [String] = []
    @Option(help: "At most this many records, the newest.") var limit: Int = 1000
    @OptionGroup var dataDir: DataDirOption
    @OptionGroup var json: JSONOption

    func validate() throws {
        guard limit >= 1 else { throw ValidationError("--limit must be at least 1.") }
    }

    func run() async throws {
        try await reportingErrors {
            let sinceDate = try since.map { try Self.parseSince($0, now: Date()) }
            let records = try await AdminSession.with(dataDir) { admin in
                var userID: String?
                if let user {
                    // A removed user cannot be looked up: their id is taken as given.
                    if let byID = try await admin.store.user(id: user) {
                        userID = byID.id
                    } else {
                        userID = try await admin.store.user(login: user)?.id ?? user
                    }
                }
                return try await admin.store.auditRecords(AuditQuery(userID: userID, since: sinceDate, events: events, limit: limit))
            }
            if json.enabled {
                try Terminal.json(records.map(AuditLine.init))
            } else if records.isEmpty {
                Terminal.out("No matching audit records.")
            } else {
                for record in records { Terminal.out(Self.describe(record)) }
            }
        }
    }

    /// One line: time, event, reason, then who and where.
    static func describe(_ record: AuditRecord) -> String {
        var parts = [record.time.formatted(.iso8601), record.event]
        if let reason = record.reason { parts.append("(\(reason))") }
        if let userID = record.userID { parts.append("user=\(userID)") }
        if let clientID = record.clientID { parts.append("client=\(clientID)") }
        if let address = record.clientAddress { parts.append("from=\(address)") }
        for (key, value) in record.detail.sorted(by: { $0.key < $1.key }) { parts.append("\(key)=\(value)") }
        if let requestID = record.requestID { parts.append("request=\(requestID)") }
        return parts.joined(separator: "  ")
    }

    /// `90s`, `15m`, `1h`, `7d` back from `now`, or an ISO 8601 time.
    static func parseSince(_ text: String, now: Date) throws -> Date {
        let units: [Character: Double] = ["s": 1, "m": 60, "h": 3600, "d": 86_400, "w": 604_800]
        if let unit = text.last, let seconds = units[unit], let amount = Double(text.dropLast()), amount >= 0,
            amount.isFinite
        {
            // No further back than 1970: `1e308d` is "everything", not minus infinity.
            return now.addingTimeInterval(-min(amount * seconds, now.timeIntervalSince1970))
        }
        if let date = try? Date(text, strategy: .iso8601) { return date }
        throw CLIError(
            "--since '\(text)' is neither a duration nor an ISO 8601 time",
            hint: "Write e.g. --since 90s, --since 1h, --since 7d or --since 2026-11-25T10:00:00Z.")
    }
}

/// An audit record as printed with `--json`.
struct AuditLine: Encodable {
    var id: String
    var time: String
    var event: String
    var reason: String?
    var userID: String?
    var clientID: String?
    var clientAddress: String?
    var requestID: String?
    var detail: [String: String]

    init(_ record: AuditRecord) {
        id = record.id
        time = record.time.formatted(.iso8601)
        event = record.event
        reason = record.reason
        userID = record.userID
        clientID = record.clientID
        clientAddress = record.clientAddress
        requestID = record.requestID
        detail = record.detail
    }

    enum CodingKeys: String, CodingKey {
        case id, time, event, reason, detail
        case userID = "user_id"
        case clientID = "client_id"
        case clientAddress = "client_address"
        case requestID = "request_id"
    }
}

import ArgumentParser
import Foundation
import SesameServer

/// `sesame outbox`: the email and SMS messages the server queued in its data directory
/// (verification, password reset, email change and MFA codes), oldest first. Without an SMTP
/// relay every message stays here; with one, delivered email keeps its headers but not its
/// body, and SMS stays here.
struct OutboxCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "outbox",
        abstract: "Show the email and SMS messages in a server's outbox.",
        discussion: """
            Bodies contain one-time codes: treat the output as secret. Works while the server \
            runs. Example: sesame outbox --to alice@example.com --json | jq -r '.[-1].body'
            """)

    @Option(help: "Only messages to this email address or phone number.") var to: String?
    @Option(help: "Only messages for this purpose, e.g. email_verification, password_reset, mfa_code.")
    var purpose: String?
    @OptionGroup var dataDir: DataDirOption
    @OptionGroup var json: JSONOption

    func run() async throws {
        try await reportingErrors {
            let entries = try await AdminSession.with(dataDir) { admin in
                return try await OutboxMessageSender(store: admin.store, keyRing: admin.keyRing).entries(to: to, purpose: purpose)
            }
            if json.enabled {
                try Terminal.json(entries.map(OutboxSummary.init))
            } else if entries.isEmpty {
                Terminal.out(to == nil && purpose == nil ? "The outbox is empty." : "No matching messages.")
            } else {
                for entry in entries { Terminal.out(Self.describe(entry)) }
            }
        }
    }

    /// A readable block: one header line, the subject, the body, a blank line.
    static func describe(_ entry: OutboxEntry) -> String {
        let message = entry.message
        let state = entry.deliveredAt.map { "delivered \(timestamp($0))" } ?? "queued"
        var lines = [
            "#\(entry.id)  \(timestamp(message.createdAt))  \(message.channel.rawValue) to \(message.to)  [\(message.purpose), \(state)]"
        ]
        if let subject = message.subject { lines.append("Subject: \(subject)") }
        lines.append(message.body.isEmpty ? "(body erased after delivery)" : message.body)
        return lines.joined(separator: "\n") + "\n"
    }

    static func timestamp(_ date: Date) -> String {
        date.formatted(.iso8601)
    }
}

/// An outbox entry as printed with `--json`.
struct OutboxSummary: Encodable {
    var id: Int64
    var channel: String
    var to: String
    var subject: String?
    var body: String
    var purpose: String
    var createdAt: String
    var deliveredAt: String?

    init(_ entry: OutboxEntry) {
        id = entry.id
        channel = entry.message.channel.rawValue
        to = entry.message.to
        subject = entry.message.subject
        body = entry.message.body
        purpose = entry.message.purpose
        createdAt = OutboxCommand.timestamp(entry.message.createdAt)
        deliveredAt = entry.deliveredAt.map(OutboxCommand.timestamp)
    }

    enum CodingKeys: String, CodingKey {
        case id, channel, to, subject, body, purpose
        case createdAt = "created_at"
        case deliveredAt = "delivered_at"
    }
}

import Foundation
import SesameProtocol
import Logging

/// Delivers email through a configured SMTP relay (``SMTPConfiguration``; RFC 5321, RFC 5322).
///
/// Every message is first written to the outbox (a transactional outbox: nothing is lost when
/// the relay is down), then submitted; on success the entry is marked delivered and its body
/// erased. SMS cannot travel over SMTP: SMS messages stay in the outbox, where an operator's
/// own gateway (or `sesame outbox`) picks them up, and are logged without their body.
public final class SMTPMessageSender: MessageSender {
    public let configuration: SMTPConfiguration
    public let outbox: OutboxMessageSender
    private let logger: Logger
    private let now: @Sendable () -> Date

    public init(
        configuration: SMTPConfiguration, outbox: OutboxMessageSender, logger: Logger,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.configuration = configuration
        self.outbox = outbox
        self.logger = logger
        self.now = now
    }

    public func send(_ message: OutboundMessage) async throws {
        let id = try await outbox.enqueue(message)
        let metadata: Logger.Metadata = [
            "outbox_id": .stringConvertible(id), "purpose": .string(message.purpose),
            "channel": .string(message.channel.rawValue),
        ]
        guard message.channel == .email else {
            logger.warning("SMS cannot be sent over SMTP; the message stays in the outbox", metadata: metadata)
            return
        }
        guard SMTPAddress.isValid(message.to) else {
            logger.error("not an email address; the message stays in the outbox", metadata: metadata)
            throw MessageDeliveryError(reason: "the recipient is not a valid email address")
        }
        let date = now()
        let domain = configuration.from.split(separator: "@").last.map(String.init) ?? "localhost"
        let mail = MailMessage(
            from: configuration.from, to: message.to, subject: message.subject ?? "", body: message.body,
            date: date, messageID: "\(SecureRandom.uuid())@\(domain)")
        do {
            try await SMTPClient(configuration: configuration).deliver(mail)
        } catch {
            var failure = metadata
            failure["error"] = .string("\(error)")
            logger.error("SMTP delivery failed; the message stays in the outbox", metadata: failure)
            throw MessageDeliveryError(reason: "\(error)")
        }
        try await outbox.markDelivered(id: id, at: now())
        logger.info("email handed to the SMTP relay", metadata: metadata)
    }
}

/// A message could not be handed over; it is kept in the outbox.
public struct MessageDeliveryError: Error, Sendable, CustomStringConvertible {
    public var reason: String

    public var description: String { "message delivery failed: \(reason)" }
}

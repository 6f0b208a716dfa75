import SesameStore
import Foundation

/// Keeps what an outbox message says sealed at rest (issue #28 §7: no live code in clear in the
/// database): the subject and body, which carry one-time codes, are sealed with the deployment's
/// master key (AES-256-GCM through ``KeyRing/sealSecret(_:context:)``, the message's recipient
/// and purpose bound as additional data) before they are stored, and opened when the outbox is
/// read (`sesame outbox`, the SMTP relay, tests). Recipient, purpose and times stay readable:
/// they are what the outbox is searched by.
///
/// A stored value starts with ``prefix``; a value without it (written before this change) is
/// read as it is.
package struct OutboxSealing: Sendable {
    package static let prefix = "sealed:v1:"
    package let keyRing: KeyRing

    package func seal(_ message: OutboundMessage) throws -> OutboundMessage {
        var sealed = message
        sealed.body = Self.prefix + (try keyRing.sealSecret(message.body, context: Self.context(message, part: "body")))
        sealed.subject = try message.subject.map {
            Self.prefix + (try keyRing.sealSecret($0, context: Self.context(message, part: "subject")))
        }
        return sealed
    }

    /// The message as it was sent; a part that cannot be opened (another deployment's master
    /// key) reads as a notice instead of failing the whole listing.
    package func open(_ message: OutboundMessage) -> OutboundMessage {
        var opened = message
        opened.body = open(message.body, message, part: "body")
        opened.subject = message.subject.map { open($0, message, part: "subject") }
        return opened
    }

    private func open(_ value: String, _ message: OutboundMessage, part: String) -> String {
        guard value.hasPrefix(Self.prefix) else { return value }
        return (try? keyRing.openSecret(String(value.dropFirst(Self.prefix.count)), context: Self.context(message, part: part)))
            ?? "(sealed with another master key: this data directory's master.key cannot open it)"
    }

    private static func context(_ message: OutboundMessage, part: String) -> String {
        "outbox:\(part):\(message.channel.rawValue):\(message.to.lowercased()):\(message.purpose)"
    }
}

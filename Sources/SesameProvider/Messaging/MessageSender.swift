import Foundation
import SesameStore

/// Sends email and SMS to end users: verification codes, MFA codes, password reset codes.
/// Implementations: ``OutboxMessageSender`` (embedded default: messages land in the store, where
/// `sesame outbox` and tests read them) and `SMTPMessageSender` (a configured relay).
public protocol MessageSender: Sendable {
    func send(_ message: OutboundMessage) async throws
}

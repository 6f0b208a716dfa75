import Foundation

/// The embedded default ``MessageSender``: messages are appended to the store's `outbox`
/// table, where `sesame outbox` and tests read them. Nothing leaves the machine, so this is for
/// development and for deployments that deliver the outbox themselves.
///
/// The outbox survives restarts. Bodies contain one-time codes in clear text until a relay
/// delivers them (``markDelivered(id:at:)`` erases the body); codes expire after minutes.
public final class OutboxMessageSender: MessageSender {
    private let store: any AccountStore

    public init(store: any AccountStore) {
        self.store = store
    }

    public func send(_ message: OutboundMessage) async throws {
        try await enqueue(message)
    }

    /// Appends `message`; returns its outbox id.
    @discardableResult
    public func enqueue(_ message: OutboundMessage) async throws -> Int64 {
        try await store.enqueueMessage(message)
    }

    /// Messages sent so far, oldest first; only those to `recipient` when given.
    public func messages(to recipient: String? = nil) async throws -> [OutboundMessage] {
        try await messages(to: recipient, purpose: nil)
    }

    /// Messages to `recipient` (when given) for `purpose` (when given, e.g. `password_reset`),
    /// oldest first.
    public func messages(to recipient: String?, purpose: String?) async throws -> [OutboundMessage] {
        try await entries(to: recipient, purpose: purpose).map(\.message)
    }

    /// Outbox entries with their ids and delivery state, oldest first.
    public func entries(to recipient: String? = nil, purpose: String? = nil) async throws -> [OutboxEntry] {
        try await store.outboxEntries(to: recipient, purpose: purpose)
    }

    /// Records that a relay accepted the message and erases its body.
    public func markDelivered(id: Int64, at date: Date) async throws {
        try await store.markMessageDelivered(id: id, at: date)
    }
}

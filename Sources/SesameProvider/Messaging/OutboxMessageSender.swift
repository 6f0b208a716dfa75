import SesameStore
import Foundation

/// The embedded default ``MessageSender``: messages are appended to the store's `outbox`
/// table, where `sesame outbox` and tests read them. Nothing leaves the machine, so this is for
/// development and for deployments that deliver the outbox themselves.
///
/// The outbox survives restarts. With a ``OutboxSealing`` (what the server and `sesame outbox`
/// use) subjects and bodies, which carry one-time codes, are sealed with the master key at rest;
/// a relay that delivers a message (``markDelivered(id:at:)``) erases its body.
public final class OutboxMessageSender: MessageSender {
    private let store: any AccountStore
    private let sealing: OutboxSealing?

    /// An outbox whose messages are stored as they are (tests of the store's outbox).
    public init(store: any AccountStore) {
        self.store = store
        sealing = nil
    }

    /// An outbox whose subjects and bodies are sealed with `keyRing`'s master key at rest.
    public init(store: any AccountStore, keyRing: KeyRing) {
        self.store = store
        sealing = OutboxSealing(keyRing: keyRing)
    }

    public func send(_ message: OutboundMessage) async throws {
        try await enqueue(message)
    }

    /// Appends `message`; returns its outbox id.
    @discardableResult
    public func enqueue(_ message: OutboundMessage) async throws -> Int64 {
        try await store.enqueueMessage(try sealing?.seal(message) ?? message)
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

    /// Outbox entries with their ids and delivery state, oldest first, opened.
    public func entries(to recipient: String? = nil, purpose: String? = nil) async throws -> [OutboxEntry] {
        let entries = try await store.outboxEntries(to: recipient, purpose: purpose)
        guard let sealing else { return entries }
        return entries.map { entry in
            var entry = entry
            entry.message = sealing.open(entry.message)
            return entry
        }
    }

    /// Records that a relay accepted the message and erases its body.
    public func markDelivered(id: Int64, at date: Date) async throws {
        try await store.markMessageDelivered(id: id, at: date)
    }
}

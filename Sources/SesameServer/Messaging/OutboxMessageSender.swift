import Foundation

/// The embedded default ``MessageSender``: messages are kept in the store's outbox.
/// (Placeholder: in memory until the accounts slice stores them in the outbox table.)
public final class OutboxMessageSender: MessageSender {
    private let messages = OutboxBuffer()

    public init(store: any AccountStore) {}

    public func send(_ message: OutboundMessage) async throws {
        await messages.append(message)
    }

    /// Messages sent so far, oldest first.
    public func messages(to recipient: String? = nil) async throws -> [OutboundMessage] {
        await messages.all().filter { recipient == nil || $0.to == recipient }
    }
}

private actor OutboxBuffer {
    private var items: [OutboundMessage] = []
    func append(_ message: OutboundMessage) { items.append(message) }
    func all() -> [OutboundMessage] { items }
}

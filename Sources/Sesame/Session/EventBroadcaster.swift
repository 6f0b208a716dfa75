import Foundation
import SesameProtocol

/// Fans ``SesameEvent``s out to every subscriber stream. Each ``subscribe()`` returns a new
/// `AsyncStream` that receives the events published after it was created; a subscriber that
/// stops iterating is removed.
final class EventBroadcaster: Sendable {
    private let subscribers = LockedState<[UInt64: AsyncStream<SesameEvent>.Continuation]>([:])
    private let nextID = LockedState<UInt64>(0)

    func subscribe() -> AsyncStream<SesameEvent> {
        let (stream, continuation) = AsyncStream<SesameEvent>.makeStream(
            bufferingPolicy: .bufferingNewest(256))
        let id = nextID.withLock { id in
            id += 1
            return id
        }
        subscribers.withLock { $0[id] = continuation }
        continuation.onTermination = { [weak self] _ in
            _ = self?.subscribers.withLock { $0.removeValue(forKey: id) }
        }
        return stream
    }

    func publish(_ event: SesameEvent) {
        let continuations = subscribers.withLock { Array($0.values) }
        for continuation in continuations { continuation.yield(event) }
    }

    /// Ends every stream (the client is going away).
    func finish() {
        let continuations = subscribers.withLock { state in
            defer { state.removeAll() }
            return Array(state.values)
        }
        for continuation in continuations { continuation.finish() }
    }
}

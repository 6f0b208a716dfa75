import Foundation
import SesameProtocol

/// Registered clients as last read from the store, for a short time.
///
/// Every request to the token, revocation and introspection endpoints authenticates its client
/// (RFC 6749 §2.3), so the client record is the most-read row of the store. Entries live for
/// ``lifetime`` (2 s by default) and are dropped at once when this store writes or removes the
/// client. On PostgreSQL the writer also announces the change (``StoreChange``) and every other
/// process drops its entry at once; elsewhere (`sesame client add|remove` on a SQLite file while
/// the server runs) a change is seen within ``lifetime``. Removing a client also deletes
/// its codes and refresh tokens at once, so only `client_credentials` could still succeed in
/// that window.
///
/// Only clients that exist are cached: lookups of unknown `client_id`s always reach the store,
/// so they cannot fill the cache. At most ``capacity`` entries; when full, the cache starts over.
final class ClientRecordCache: Sendable {
    let lifetime: Duration
    static let capacity = 10_000

    private struct Entry {
        let record: ClientRecord
        let expires: ContinuousClock.Instant
    }

    private struct State {
        var entries: [String: Entry] = [:]
        /// Bumped by every ``forget(_:)``: a read that started before a write must not be
        /// remembered after it.
        var generation: UInt64 = 0
    }

    private let state = LockedState(State())
    private let clock = ContinuousClock()

    init(lifetime: Duration = .seconds(2)) {
        self.lifetime = lifetime
    }

    /// The cached record, if it was read less than ``lifetime`` ago.
    func record(for clientID: String) -> ClientRecord? {
        guard lifetime > .zero else { return nil }
        let now = clock.now
        return state.withLock { state in
            guard let entry = state.entries[clientID] else { return nil }
            if entry.expires > now { return entry.record }
            state.entries[clientID] = nil
            return nil
        }
    }

    /// Taken before reading the store; pass it to ``remember(_:readAt:)``.
    var generation: UInt64 { state.withLock { $0.generation } }

    /// Caches `record` unless a write forgot any client since the read began.
    func remember(_ record: ClientRecord, readAt generation: UInt64) {
        guard lifetime > .zero else { return }
        let entry = Entry(record: record, expires: clock.now.advanced(by: lifetime))
        state.withLock { state in
            guard state.generation == generation else { return }
            if state.entries.count >= Self.capacity { state.entries.removeAll(keepingCapacity: true) }
            state.entries[record.clientID] = entry
        }
    }

    func forgetAll() {
        state.withLock { state in
            state.entries.removeAll()
            state.generation &+= 1
        }
    }

    func forget(_ clientID: String) {
        state.withLock { state in
            state.entries[clientID] = nil
            state.generation &+= 1
        }
    }
}

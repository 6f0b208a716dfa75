import Foundation
import SesameProtocol

/// Where a resource server keeps the DPoP proofs it accepted (RFC 9449 §11.1), so a proof is
/// accepted once. Each instance of an API behind one name must share one store, or a proof
/// replayed to a second instance would be accepted there: ``DPoPReplayCache`` keeps them in one
/// process; `SQLDPoPReplayStore` (module `SesameResourceServerSQL`) in a PostgreSQL database the
/// instances share.
public protocol DPoPReplayStore: Sendable {
    /// Records `key` (a proof's key thumbprint and `jti`) until `expiry`: `true` the first time,
    /// `false` when it was recorded before and has not expired at `now` (a replay), also when
    /// another instance recorded it. Throws when the store cannot be asked; the request is then
    /// refused (fail closed).
    func record(_ key: String, until expiry: Date, now: Date) async throws -> Bool
}

/// The DPoP proofs one API process has accepted (RFC 9449 §11.1), each kept until its `iat` is
/// too old to be accepted again: a replayed proof is refused. Bounded: at ``capacity`` live
/// entries new proofs are refused (fail closed) until older ones expire.
public final class DPoPReplayCache: DPoPReplayStore {
    private let entries = LockedState<[String: Date]>([:])
    /// The most proofs kept at once.
    public let capacity: Int

    /// A cache of at most `capacity` proofs.
    public init(capacity: Int = 200_000) {
        self.capacity = max(1, capacity)
    }

    /// Records `key` until `expiry` in this process's memory: `false` when it was seen and has not
    /// expired at `now`, or the cache is full of live entries (fail closed).
    public func record(_ key: String, until expiry: Date, now: Date) async throws -> Bool {
        entries.withLock { table in
            if let seen = table[key], seen > now { return false }
            if table.count >= capacity {
                table = table.filter { $0.value > now }
                guard table.count < capacity else { return false }
            }
            table[key] = expiry
            return true
        }
    }

    /// The number of proofs kept.
    public var count: Int { entries.withLock { $0.count } }
}

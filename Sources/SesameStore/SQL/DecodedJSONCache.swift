import SesameProtocol
import Foundation

/// JSON column values already decoded, keyed by their text.
///
/// Every token of a refresh-token family carries the same `authentication` JSON, and every
/// rotation used to decode it again (a visible share of the server's CPU under refresh load). The
/// key is the stored text itself, so an entry can never be stale: a different value is a
/// different key. At most ``capacity`` entries; when full, the cache starts over.
final class DecodedJSONCache<Value: Decodable & Sendable>: Sendable {
    static var capacity: Int { 4_096 }
    private let entries = LockedState<[String: Value]>([:])

    /// `text` decoded, from the cache when it was decoded before.
    func value(of text: String, column: String) throws -> Value {
        if let cached = entries.withLock({ $0[text] }) { return cached }
        let value = try StoreValue.fromJSON(Value.self, text, column: column)
        entries.withLock { entries in
            if entries.count >= Self.capacity { entries.removeAll(keepingCapacity: true) }
            entries[text] = value
        }
        return value
    }
}

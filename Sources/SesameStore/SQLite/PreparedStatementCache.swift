import VaporCSQLite

/// Prepared statements kept between executions, by SQL text (what GRDB's `cachedStatement` and
/// rusqlite's `prepare_cached` do).
///
/// Preparing runs SQLite's parser and planner: for the refresh rotation (an `INSERT … SELECT`
/// with a `NOT EXISTS` subquery and `RETURNING`) that was a sixth of the CPU the server spends
/// outside the signatures, on every request (issue #50). The store runs the same few texts with
/// fresh binds, so each is prepared once and reset after use.
///
/// Not thread-safe: ``SQLiteSharedConnection`` uses it only while holding the connection's
/// lock, which also serializes every statement on the handle, so a statement is never in use
/// twice. It holds at most ``capacity`` statements; past that, the one used longest ago is
/// finalized (a store with a statement text per request, such as an `IN` list of varying
/// length, then prepares as it did without a cache).
struct PreparedStatementCache {
    /// Statements kept. Under the side-by-side browser sign-in load, 16, 32 and 64 saved the same
    /// CPU per sign-in (~180 µs of ~1,300), but with 64 the server's peak memory was 4 MB higher
    /// (a statement's program is tens of kilobytes; issue #50).
    static let capacity = 32

    private var statements: [String: (statement: OpaquePointer, lastUse: UInt64)] = [:]
    private var clock: UInt64 = 0

    /// The statement prepared from `sql`, removed from the cache, or `nil` to prepare one.
    mutating func take(_ sql: String) -> OpaquePointer? {
        statements.removeValue(forKey: sql)?.statement
    }

    /// Keeps `statement` (reset, bindings cleared) for the next execution of `sql`.
    mutating func keep(_ statement: OpaquePointer, for sql: String) {
        clock &+= 1
        if let replaced = statements.updateValue((statement, clock), forKey: sql), replaced.statement != statement {
            sqlite_nio_sqlite3_finalize(replaced.statement)
        }
        if statements.count > Self.capacity, let oldest = statements.min(by: { $0.value.lastUse < $1.value.lastUse }) {
            sqlite_nio_sqlite3_finalize(oldest.value.statement)
            statements[oldest.key] = nil
        }
    }

    /// Finalizes every statement (before the connection closes).
    mutating func finalizeAll() {
        for entry in statements.values { sqlite_nio_sqlite3_finalize(entry.statement) }
        statements = [:]
    }

    /// Statements held.
    var count: Int { statements.count }
}

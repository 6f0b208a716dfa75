import SQLiteNIO

/// Group commit: the statements that queued while the connection was busy run in one write
/// transaction, so one commit (the WAL's locks, its commit frame, the wal-index update) serves
/// them all, and a page they share (the newest leaf of a table, an index page) reaches the WAL
/// once instead of once for each (SQLite "Write-Ahead Logging" §2.1; the technique of database
/// servers' group commit).
///
/// What each caller sees is unchanged from running its statement alone:
/// - **Atomic per statement.** A statement that fails (a `UNIQUE` violation, say) has its own
///   changes undone and the transaction goes on (SQLite "ON CONFLICT" §ABORT, the default).
///   An error that ends the whole transaction (`SQLITE_FULL`, `SQLITE_IOERR`, `SQLITE_NOMEM`:
///   `sqlite3_get_autocommit` is true again), or a `BEGIN` or `COMMIT` that fails, runs the
///   group again one statement at a time, as if it had never been grouped: nothing of it was
///   committed.
/// - **Durable before answered.** Results are handed back only after `COMMIT`: no caller sees
///   a row (a refresh token it will give out) that a crash could still lose.
/// - **In order.** Statements run in the order they queued; a caller's next statement is queued
///   only after its previous one answered.
///
/// Only data statements are grouped (``Kind``): a `PRAGMA`, a schema change or a transaction
/// statement runs alone, outside any transaction, as before. A group of reads only runs without
/// a transaction (a read commits nothing).
enum SQLiteGroupCommit {
    /// A statement's text and values.
    typealias Statement = (sql: String, binds: [SQLiteData])
    /// Runs one statement on the connection (prepared or kept, bound, stepped, reset).
    typealias Execute = (_ sql: String, _ binds: [SQLiteData]) -> Result<SQLiteRows, any Error>

    /// Statements a group holds at most, so that the first of a long queue is not kept waiting
    /// for the last.
    static let maximumGroup = 64

    /// What a statement is, from its first keyword.
    enum Kind: Equatable {
        /// `SELECT`: grouped, but needs no write transaction.
        case read
        /// `INSERT`, `UPDATE`, `DELETE`, `REPLACE` or `WITH`: grouped.
        case write
        /// Anything else (`PRAGMA`, `CREATE`, `ALTER`, `DROP`, `BEGIN`, `VACUUM`…): runs alone.
        case other

        init(_ sql: String) {
            var keyword: [UInt8] = []
            for byte in sql.utf8 {
                if keyword.isEmpty, byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D || byte == 0x28 { continue }
                let isLetter = (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                guard isLetter, keyword.count < 8 else { break }
                keyword.append(byte | 0x20)  // lower case
            }
            switch String(decoding: keyword, as: UTF8.self) {
            case "select": self = .read
            case "insert", "update", "delete", "replace", "with": self = .write
            default: self = .other
            }
        }
    }

    /// Runs `statements` in their order, grouping each run of data statements that holds a
    /// write into one transaction; one result per statement, in the same order.
    /// `inTransaction` tells whether the connection is inside a transaction
    /// (`!sqlite3_get_autocommit`).
    static func run(
        _ statements: [Statement], execute: Execute, inTransaction: () -> Bool
    ) -> [Result<SQLiteRows, any Error>] {
        var results: [Result<SQLiteRows, any Error>] = []
        results.reserveCapacity(statements.count)
        var group: [Statement] = []
        var groupWrites = false
        func flush() {
            if group.count > 1, groupWrites, !inTransaction() {
                results += transaction(group, execute: execute, inTransaction: inTransaction)
            } else {
                results += group.map { execute($0.sql, $0.binds) }
            }
            group.removeAll(keepingCapacity: true)
            groupWrites = false
        }
        for statement in statements {
            switch Kind(statement.sql) {
            case .other:
                flush()
                results.append(execute(statement.sql, statement.binds))
            case .read:
                group.append(statement)
            case .write:
                group.append(statement)
                groupWrites = true
            }
        }
        flush()
        return results
    }

    /// `group` in one `BEGIN IMMEDIATE … COMMIT` (the write lock from the start, so no statement
    /// of it can meet another process's write and fail with `SQLITE_BUSY_SNAPSHOT`), or one at a
    /// time when the transaction cannot be had or was lost.
    private static func transaction(
        _ group: [Statement], execute: Execute, inTransaction: () -> Bool
    ) -> [Result<SQLiteRows, any Error>] {
        guard case .success = execute("BEGIN IMMEDIATE", []) else {
            // Busy past the timeout, or the disk: each statement meets that on its own.
            return group.map { execute($0.sql, $0.binds) }
        }
        var results: [Result<SQLiteRows, any Error>] = []
        results.reserveCapacity(group.count)
        for statement in group {
            results.append(execute(statement.sql, statement.binds))
            if !inTransaction() {
                // An error rolled the whole transaction back: nothing of the group was kept.
                return group.map { execute($0.sql, $0.binds) }
            }
        }
        guard case .success = execute("COMMIT", []) else {
            if inTransaction() { _ = execute("ROLLBACK", []) }
            return group.map { execute($0.sql, $0.binds) }
        }
        return results
    }
}

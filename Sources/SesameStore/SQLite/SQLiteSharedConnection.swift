import NIOCore
import NIOPosix
import SQLiteNIO
import SesameProtocol
import VaporCSQLite

/// The one `sqlite3` connection a store's requests share, with its statements kept prepared
/// (``PreparedStatementCache``).
///
/// SQLiteNIO prepares and finalizes a statement on every execution and completes each result
/// row on an event loop before the query's future; this connection keeps the prepared
/// statements and resumes the caller from the thread that ran the statement, with all its rows.
/// The data types are still SQLiteNIO's (`SQLiteData`) and the C library its build of SQLite.
///
/// Statements run on a `NIOThreadPool` (SQLite blocks: disk I/O, and `busy_timeout` while
/// another process holds the write lock), one at a time. A caller queues its statement; one
/// pool thread at a time drains the queue, and what queued while it was busy runs as one
/// group (``SQLiteGroupCommit``: one transaction, one commit, results handed back after it).
/// The execution lock is held for a whole group, so the statement cache needs no lock of its
/// own and an error's message is the statement's own (`sqlite3_errmsg` is per connection). The
/// handle is opened in SQLite's multi-thread mode (`SQLITE_OPEN_NOMUTEX`) since that lock
/// already keeps it to one thread at a time.
final class SQLiteSharedConnection: @unchecked Sendable {
    // `@unchecked`: `handle` is only used while `state`'s lock is held, or by `close` after
    // `state.isClosed` was set under it.
    private let handle: OpaquePointer
    private let threadPool: NIOThreadPool
    private let state = LockedState(State())
    /// Statements waiting for the connection; a lock of its own, so that queueing never waits
    /// for a statement that runs.
    private let queue = LockedState(Queue())

    private struct State {
        var cache = PreparedStatementCache()
        var isClosed = false
    }

    private struct Queue {
        var waiting = CircularBuffer<Waiting>()
        /// Whether a pool thread is draining `waiting` (at most one is).
        var isDraining = false
        /// The most statements one group held (for tests).
        var largestGroup = 0
    }

    /// A queued statement and the caller waiting for its rows.
    private struct Waiting {
        let sql: String
        let binds: [SQLiteData]
        let continuation: CheckedContinuation<SQLiteRows, any Error>
    }

    private init(handle: OpaquePointer, threadPool: NIOThreadPool) {
        self.handle = handle
        self.threadPool = threadPool
    }

    /// SQLite's one-time set-up, before the first connection (SQLiteNIO guards it the same way).
    private static let initialized: Int32 = sqlite_nio_sqlite3_initialize()

    /// Opens (creating if needed) the database file at `path`; a statement waits up to
    /// `busyTimeoutMilliseconds` for another connection's lock before failing with `SQLITE_BUSY`.
    static func open(path: String, busyTimeoutMilliseconds: Int32, threadPool: NIOThreadPool) async throws
        -> SQLiteSharedConnection
    {
        try await run(on: threadPool) {
            guard initialized == SQLITE_OK else { throw SQLiteStatementError(code: initialized, handle: nil) }
            var handle: OpaquePointer?
            let flags = SQLITE_OPEN_CREATE | SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
            let opened = sqlite_nio_sqlite3_open_v2(path, &handle, flags, nil)
            guard opened == SQLITE_OK, let handle else {
                let error = SQLiteStatementError(code: opened, handle: handle)
                sqlite_nio_sqlite3_close(handle)
                throw error
            }
            sqlite_nio_sqlite3_busy_timeout(handle, busyTimeoutMilliseconds)
            return SQLiteSharedConnection(handle: handle, threadPool: threadPool)
        }
    }

    /// Runs `sql` with `binds` (`?` placeholders, in order) and returns every row it produced.
    /// Like `NIOThreadPool.runIfActive` it fails once the pool stopped; unlike it, a cancelled
    /// task's statement still runs, as it did with SQLiteNIO: a write the store started (a
    /// withdrawal after a refused refresh) is not dropped.
    func run(_ sql: String, _ binds: [SQLiteData]) async throws -> SQLiteRows {
        try await withCheckedThrowingContinuation { continuation in
            let startsDrainer = queue.withLock { queue in
                queue.waiting.append(Waiting(sql: sql, binds: binds, continuation: continuation))
                defer { queue.isDraining = true }
                return !queue.isDraining
            }
            if startsDrainer { threadPool.submit { work in self.drain(work) } }
        }
    }

    /// Runs what is queued, a group at a time, until the queue is empty.
    private func drain(_ work: NIOThreadPool.WorkItemState) {
        while true {
            let group: [Waiting] = queue.withLock { queue in
                let count = min(queue.waiting.count, SQLiteGroupCommit.maximumGroup)
                let taken = Array(queue.waiting.prefix(count))
                queue.waiting.removeFirst(count)
                if taken.isEmpty { queue.isDraining = false }
                queue.largestGroup = max(queue.largestGroup, count)
                return taken
            }
            if group.isEmpty { return }
            guard case .active = work else {
                for waiting in group {
                    waiting.continuation.resume(
                        throwing: SQLiteStatementError(code: SQLITE_MISUSE, message: "the store is closing"))
                }
                continue
            }
            let results = state.withLock { state -> [Result<SQLiteRows, any Error>] in
                // Closed: the handle is gone, so not even `sqlite3_get_autocommit` may touch it.
                guard !state.isClosed else { return group.map { _ in .failure(Self.closed) } }
                return SQLiteGroupCommit.run(
                    group.map { ($0.sql, $0.binds) },
                    execute: { sql, binds in Result { try self.execute(sql, binds, in: &state) } },
                    inTransaction: { sqlite_nio_sqlite3_get_autocommit(self.handle) == 0 })
            }
            for (waiting, result) in zip(group, results) { waiting.continuation.resume(with: result) }
        }
    }

    /// Finalizes the kept statements and closes the handle; statements after this fail.
    func close() async {
        try? await Self.run(on: threadPool) {
            let open = self.state.withLock { state in
                defer {
                    state.cache.finalizeAll()
                    state.isClosed = true
                }
                return !state.isClosed
            }
            if open { sqlite_nio_sqlite3_close(self.handle) }
        }
    }

    /// Statements kept prepared (for tests).
    var preparedStatements: Int { state.withLock { $0.cache.count } }

    /// Statements queued and not yet taken, whether one runs, and the most one group held (for tests).
    var queueStatistics: (waiting: Int, draining: Bool, largestGroup: Int) {
        queue.withLock { ($0.waiting.count, $0.isDraining, $0.largestGroup) }
    }

    private static let closed = SQLiteStatementError(code: SQLITE_MISUSE, message: "the database connection is closed")

    /// Runs one statement; the caller holds `state`'s lock.
    private func execute(_ sql: String, _ binds: [SQLiteData], in state: inout State) throws -> SQLiteRows {
        guard !state.isClosed else { throw Self.closed }
        let statement = try state.cache.take(sql) ?? prepare(sql)
        do {
            let rows = try SQLiteStatementRun(statement: statement, handle: handle).rows(binding: binds)
            sqlite_nio_sqlite3_reset(statement)
            sqlite_nio_sqlite3_clear_bindings(statement)
            state.cache.keep(statement, for: sql)
            return rows
        } catch {
            // A statement that failed is not kept: the next execution prepares it afresh.
            sqlite_nio_sqlite3_finalize(statement)
            throw error
        }
    }

    private func prepare(_ sql: String) throws -> OpaquePointer {
        var statement: OpaquePointer?
        let prepared = sqlite_nio_sqlite3_prepare_v3(
            handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard prepared == SQLITE_OK else { throw SQLiteStatementError(code: prepared, handle: handle) }
        guard let statement else {
            throw SQLiteStatementError(code: SQLITE_MISUSE, message: "the SQL text holds no statement")
        }
        return statement
    }

    /// Runs `body` on `threadPool` (opening and closing) and resumes the caller from there.
    private static func run<T: Sendable>(
        on threadPool: NIOThreadPool, _ body: @escaping @Sendable () throws -> T
    ) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            threadPool.submit { work in
                guard case .active = work else {
                    continuation.resume(
                        throwing: SQLiteStatementError(code: SQLITE_MISUSE, message: "the store is closing"))
                    return
                }
                continuation.resume(with: Result(catching: body))
            }
        }
    }
}

/// A statement SQLite refused or could not finish: its (extended) result code and message,
/// such as `UNIQUE constraint failed: users.email` (``StoreDialect/uniqueViolation(in:columns:)``
/// reads that) or `database is locked` after the busy timeout.
struct SQLiteStatementError: Error, CustomStringConvertible {
    let code: Int32
    let message: String

    init(code: Int32, message: String) {
        self.code = code
        self.message = message
    }

    /// The connection's message for `code` (SQLite's generic one without a connection).
    init(code: Int32, handle: OpaquePointer?) {
        let text = handle.flatMap { sqlite_nio_sqlite3_errmsg($0) } ?? sqlite_nio_sqlite3_errstr(code)
        self.init(code: code, message: text.map { String(cString: $0) } ?? "SQLite error \(code)")
    }

    var description: String { "SQLite error \(code): \(message)" }
}

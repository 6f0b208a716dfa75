import Foundation
import Logging
import NIOCore
import NIOPosix
import SQLKit

/// Everything SQLite-specific about opening the store (one file under the data
/// directory). Owns the connection and its thread pool, and closes them together.
///
/// One connection is shared by all requests (``SQLiteSharedConnection``, which keeps their
/// statements prepared and commits the writes that queue together as one group,
/// ``SQLiteGroupCommit``): the store issues only single-statement atomic writes, and WAL mode
/// lets other processes (the `sesame` CLI) read while the server writes. `busy_timeout` makes a
/// writer wait for another process's write lock instead of failing.
struct SQLiteBackend: Sendable {
    let connection: SQLiteSharedConnection
    let threadPool: NIOThreadPool
    /// Checkpoints from a second connection (``WALCheckpointer``).
    let checkpointer: WALCheckpointer
    let logger: Logger

    var database: any SQLDatabase { SQLiteStoreDatabase(connection: connection, logger: logger) }

    /// Milliseconds a statement waits for another connection's lock before failing.
    static let busyTimeoutMilliseconds = 5_000

    /// WAL frames (pages) after which the serving connection checkpoints itself, a fallback
    /// for when the ``WALCheckpointer`` falls behind; SQLite's default is 1,000. A refresh
    /// writes about nine pages, and a checkpoint costs two `fsync`s plus copying every page it
    /// finds, so fewer, larger checkpoints fold more rewrites of the same hot pages.
    /// Durability is unchanged for a crash of the process (WAL, `synchronous = NORMAL`).
    static let checkpointPages = 10_000

    /// How often the ``WALCheckpointer`` runs.
    static let checkpointInterval = Duration.milliseconds(500)

    /// After a checkpoint, a WAL file larger than this (bytes) is truncated to it, so one burst
    /// does not keep disk space.
    static let walSizeLimitBytes = 64 * 1024 * 1024

    static func open(
        at url: URL, logger: Logger, checkpointInterval: Duration = checkpointInterval
    ) async throws -> SQLiteBackend {
        let directory = url.deletingLastPathComponent()
        if !FileManager.default.fileExists(atPath: directory.path) {
            throw StoreError.unavailable(
                reason: "the directory \(directory.path) does not exist; create it or pass another --data-dir")
        }
        try OwnerOnlyFiles.prepare(database: url)
        let threadPool = NIOThreadPool(numberOfThreads: 2)
        threadPool.start()
        let connection: SQLiteSharedConnection
        do {
            connection = try await openConnection(at: url, threadPool: threadPool)
        } catch {
            try? await threadPool.shutdownGracefully()
            throw StoreError.unavailable(
                reason: "cannot open \(url.path) (\(error)); check that the file is a Sesame database and is writable")
        }
        let checkpointer: WALCheckpointer
        do {
            try await configure(SQLiteStoreDatabase(connection: connection, logger: logger))
            checkpointer = WALCheckpointer(
                connection: try await openConnection(at: url, threadPool: threadPool),
                interval: checkpointInterval, logger: logger)
        } catch {
            await connection.close()
            try? await threadPool.shutdownGracefully()
            throw StoreError.unavailable(
                reason: "cannot configure \(url.path) (\(error)); check that the file is a Sesame database and is writable")
        }
        // WAL mode created the -wal and -shm files with the database's mode; a database from an
        // earlier version may have had looser ones.
        try? OwnerOnlyFiles.narrow(database: url)
        return SQLiteBackend(
            connection: connection, threadPool: threadPool, checkpointer: checkpointer, logger: logger)
    }

    /// A connection to the file that waits `busy_timeout` for another connection's lock.
    private static func openConnection(at url: URL, threadPool: NIOThreadPool) async throws -> SQLiteSharedConnection {
        try await SQLiteSharedConnection.open(
            path: url.path, busyTimeoutMilliseconds: Int32(busyTimeoutMilliseconds), threadPool: threadPool)
    }

    /// The serving connection's pragmas. `journal_mode` is persistent in the file; the others
    /// are not.
    private static func configure(_ db: any SQLDatabase) async throws {
        try await db.raw("PRAGMA journal_mode = WAL").run()
        try await db.raw("PRAGMA synchronous = NORMAL").run()
        try await db.raw("PRAGMA foreign_keys = ON").run()
        try await db.raw("PRAGMA wal_autocheckpoint = \(unsafeRaw: String(checkpointPages))").run()
        try await db.raw("PRAGMA journal_size_limit = \(unsafeRaw: String(walSizeLimitBytes))").run()
    }

    func close() async throws {
        await checkpointer.stop()
        await connection.close()
        try await threadPool.shutdownGracefully()
    }
}

import Foundation
import Logging
import NIOCore
import NIOPosix
import SQLKit
import SQLiteKit

/// Everything SQLite-specific about opening the store (SPEC §2: one file under the data
/// directory). Owns the connection, its thread pool and event loop, and closes them together.
///
/// One connection is shared by all requests: SQLiteNIO opens it in serialized mode
/// (`SQLITE_OPEN_FULLMUTEX`), the store issues only single-statement atomic writes, and WAL mode
/// lets other processes (the `sesame` CLI) read while the server writes. `busy_timeout` makes a
/// writer wait for another process's write lock instead of failing.
struct SQLiteBackend: Sendable {
    let connection: SQLiteConnection
    let threadPool: NIOThreadPool
    let eventLoopGroup: MultiThreadedEventLoopGroup

    var database: any SQLDatabase { connection.sql(queryLogLevel: nil) }

    /// Milliseconds a statement waits for another connection's lock before failing.
    static let busyTimeoutMilliseconds = 5_000

    static func open(at url: URL, logger: Logger) async throws -> SQLiteBackend {
        let directory = url.deletingLastPathComponent()
        if !FileManager.default.fileExists(atPath: directory.path) {
            throw StoreError.unavailable(
                reason: "the directory \(directory.path) does not exist; create it or pass another --data-dir")
        }
        let threadPool = NIOThreadPool(numberOfThreads: 2)
        threadPool.start()
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let connection: SQLiteConnection
        do {
            connection = try await SQLiteConnection.open(
                storage: .file(path: url.path), threadPool: threadPool, logger: logger,
                on: group.any())
        } catch {
            try? await threadPool.shutdownGracefully()
            try? await group.shutdownGracefully()
            throw StoreError.unavailable(
                reason: "cannot open \(url.path) (\(error)); check that the file is a Sesame database and is writable")
        }
        let backend = SQLiteBackend(connection: connection, threadPool: threadPool, eventLoopGroup: group)
        do {
            try await backend.configure()
        } catch {
            try? await backend.close()
            throw StoreError.unavailable(
                reason: "cannot configure \(url.path) (\(error)); check that the file is a Sesame database and is writable")
        }
        return backend
    }

    /// Per-connection pragmas. `journal_mode` is persistent in the file; the others are not.
    private func configure() async throws {
        let db = database
        try await db.raw("PRAGMA busy_timeout = \(unsafeRaw: String(Self.busyTimeoutMilliseconds))").run()
        try await db.raw("PRAGMA journal_mode = WAL").run()
        try await db.raw("PRAGMA synchronous = NORMAL").run()
        try await db.raw("PRAGMA foreign_keys = ON").run()
    }

    func close() async throws {
        try? await connection.close()
        try await threadPool.shutdownGracefully()
        try await eventLoopGroup.shutdownGracefully()
    }
}

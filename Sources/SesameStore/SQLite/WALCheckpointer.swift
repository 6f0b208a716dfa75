import Logging
import SQLKit

/// Copies WAL frames back into the database file (a SQLite checkpoint) from a connection of its
/// own, every `interval`.
///
/// Left to itself, SQLite checkpoints on the connection whose commit crosses
/// `wal_autocheckpoint`: that statement then copies every page and waits for two `fsync`s
/// while all requests queue behind it on the shared connection, which shows in the tail
/// latency of the token endpoint. A `PASSIVE` checkpoint from a second connection copies what
/// no reader still needs, without taking the write lock, so requests keep committing
/// meanwhile. The serving connection's own automatic checkpoint stays as the fallback.
final class WALCheckpointer: Sendable {
    private let connection: SQLiteSharedConnection
    private let loop: Task<Void, Never>

    init(connection: SQLiteSharedConnection, interval: Duration, logger: Logger) {
        self.connection = connection
        let database = SQLiteStoreDatabase(connection: connection, logger: logger)
        loop = Task {
            var failing = false
            while !Task.isCancelled {
                do {
                    try await Task.sleep(for: interval)
                } catch {
                    return  // cancelled
                }
                do {
                    try await database.raw("PRAGMA wal_checkpoint(PASSIVE)").run()
                    if failing { logger.info("WAL checkpoints work again") }
                    failing = false
                } catch {
                    // Busy or I/O trouble: the serving connection's automatic checkpoint
                    // still bounds the WAL; try again next interval, and say so once per streak.
                    if !failing {
                        logger.warning(
                            "WAL checkpoint failed; retrying every interval (check disk space and permissions of the data directory)",
                            metadata: ["error": "\(error)"])
                    }
                    failing = true
                }
            }
        }
    }

    /// Stops the loop and closes its connection.
    func stop() async {
        loop.cancel()
        await loop.value
        await connection.close()
    }
}

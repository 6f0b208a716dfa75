import Foundation
import SQLKit
import SesameProtocol
import SesameResourceServer

/// A ``DPoPReplayStore`` in a SQL database the instances of an API share (RFC 9449 §11.1): a
/// proof one instance accepted is refused by every other, as one process refuses it twice.
/// PostgreSQL for APIs on several hosts (any `SQLDatabase`: PostgresKit's, or SQLite for one
/// host).
///
/// One table, `dpop_replays` (``createTable()`` makes it): a row per proof (`key`, its expiry).
/// ``record(_:until:now:)`` is one statement, `INSERT … ON CONFLICT DO UPDATE … WHERE expired
/// RETURNING`: a row comes back to exactly one of any number of concurrent callers, whichever
/// instance they run on. Expired rows are deleted every ``purgeEvery`` records.
///
/// ```swift
/// let replays = SQLDPoPReplayStore(database: postgres.sql())
/// try await replays.createTable()
/// let validator = AccessTokenValidator(
///     issuer: "https://id.example.com", audience: "https://api.example.com",
///     dpop: DPoPValidation(replays: replays))
/// ```
public final class SQLDPoPReplayStore: DPoPReplayStore {
    /// The database the API's instances share.
    public let database: any SQLDatabase
    /// The table's name (`dpop_replays` by default).
    public let table: String
    /// Expired rows are deleted once every this many records (default 1000).
    public let purgeEvery: Int
    private let records = LockedState(0)

    /// - Parameters:
    ///   - database: the database every instance of the API uses.
    ///   - table: the table's name: letters, digits and `_` only.
    ///   - purgeEvery: how many records between two deletions of expired rows.
    public init(database: any SQLDatabase, table: String = "dpop_replays", purgeEvery: Int = 1000) {
        precondition(
            !table.isEmpty && table.utf8.allSatisfy { $0 == 0x5F || ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x7A) },
            "the table name must be letters, digits and underscores")
        self.database = database
        self.table = table
        self.purgeEvery = max(1, purgeEvery)
    }

    /// Creates the table and its index when they do not exist (safe to run from every instance
    /// at start).
    public func createTable() async throws {
        // Seconds since 1970 in 8 bytes: PostgreSQL's REAL has 4, whose ~7 digits round a time of
        // today to 128 s, so a proof's expiry could land before `now` and its replay be accepted.
        try await database.create(table: table).ifNotExists()
            .column("replay_key", type: .text, .primaryKey(autoIncrement: false))
            .column("expires_at", type: .custom(SQLRaw("DOUBLE PRECISION")), .notNull)
            .run()
        if database.dialect.name == "postgresql" {
            // A table made by an earlier version with REAL: widened in place (a no-op when done).
            try await database.raw(
                "ALTER TABLE \(unsafeRaw: table) ALTER COLUMN expires_at TYPE DOUBLE PRECISION").run()
        }
        try await database.raw("CREATE INDEX IF NOT EXISTS \(unsafeRaw: table)_expires_at ON \(unsafeRaw: table) (expires_at)").run()
    }

    /// Records `key` until `expiry` in the shared table: `true` for exactly one caller on any
    /// instance while the row lives; an expired row is taken over. Throws when the database fails.
    public func record(_ key: String, until expiry: Date, now: Date) async throws -> Bool {
        let count = records.withLock { count -> Int in
            count &+= 1
            return count
        }
        if count % purgeEvery == 0 { try await purge(now: now) }
        let row = try await database.raw(
            """
            INSERT INTO \(unsafeRaw: table) (replay_key, expires_at) VALUES (\(bind: key), \(bind: expiry.timeIntervalSince1970))
            ON CONFLICT (replay_key) DO UPDATE SET expires_at = excluded.expires_at
            WHERE \(unsafeRaw: table).expires_at <= \(bind: now.timeIntervalSince1970)
            RETURNING replay_key
            """
        ).first()
        return row != nil
    }

    /// Deletes the proofs that can no longer be replayed (their `iat` is too old anyway).
    public func purge(now: Date) async throws {
        try await database.delete(from: table).where("expires_at", .lessThanOrEqual, now.timeIntervalSince1970).run()
    }
}

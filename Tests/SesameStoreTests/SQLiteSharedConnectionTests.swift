import Foundation
import NIOCore
import NIOPosix
import SQLKit
import SQLiteNIO
import StoreTesting
import Testing
@testable import SesameStore

/// The store's own SQLite connection: statements kept prepared, values that round-trip, errors
/// that say what failed and leave the connection usable (issue #50).
@Suite("Store: the shared SQLite connection and its prepared statements")
struct SQLiteSharedConnectionTests {
    /// A connection to a fresh file with a table `t (id INTEGER PRIMARY KEY, name TEXT UNIQUE,
    /// data BLOB, score REAL)`, closed (with its pool) after `body`.
    private func withConnection(_ body: (SQLiteSharedConnection, any SQLDatabase) async throws -> Void) async throws {
        let sandbox = try StoreSandbox.make()
        defer { sandbox.remove() }
        let pool = NIOThreadPool(numberOfThreads: 2)
        pool.start()
        let connection = try await SQLiteSharedConnection.open(
            path: sandbox.databaseURL.path, busyTimeoutMilliseconds: 1_000, threadPool: pool)
        let database = SQLiteStoreDatabase(connection: connection, logger: StoreSamples.logger)
        do {
            try await database.raw(
                "CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT UNIQUE, data BLOB, score REAL)"
            ).run()
            try await body(connection, database)
        } catch {
            await connection.close()
            try await pool.shutdownGracefully()
            throw error
        }
        await connection.close()
        try await pool.shutdownGracefully()
    }

    @Test("a statement run again is the one prepared before; past the capacity the oldest texts are let go")
    func keptPrepared() async throws {
        try await withConnection { connection, database in
            let before = connection.preparedStatements
            for index in 0..<5 {
                try await database.insert(into: "t").columns("id", "name").values(index, "n\(index)").run()
            }
            #expect(connection.preparedStatements == before + 1, "five inserts of one text keep one statement")
            for index in 0..<(PreparedStatementCache.capacity * 2) {
                // A distinct text each time (the limit is written into it).
                let rows = try await database.raw("SELECT id FROM t ORDER BY id LIMIT \(unsafeRaw: String(index + 1))").all()
                #expect(rows.count == min(index + 1, 5))
            }
            #expect(connection.preparedStatements == PreparedStatementCache.capacity)
        }
    }

    @Test("values round-trip: NUL inside text, empty and binary blobs, NULL, extreme numbers, 1 MB of text")
    func valuesRoundTrip() async throws {
        try await withConnection { _, database in
            let cases: [(Int, String?, [UInt8]?, Double?)] = [
                (1, "a\u{0}b", [], 1e308), (2, "", [0, 255, 0], -0.0), (3, nil, nil, nil),
                (Int.max, String(repeating: "é🙂", count: 200_000), Array(repeating: 7, count: 70_000), .greatestFiniteMagnitude),
                (Int.min, "'; DROP TABLE t; --", [1], -1e-300),
            ]
            for (id, name, data, score) in cases {
                try await database.insert(into: "t").columns("id", "name", "data", "score")
                    .values(SQLBind(id), SQLBind(name), SQLBind(data.map { Data($0) }), SQLBind(score)).run()
                let row = try #require(try await database.select().columns("name", "data", "score").from("t")
                    .where("id", .equal, id).first())
                #expect(try row.decode(column: "name", as: String?.self) == name)
                #expect(try row.decode(column: "data", as: Data?.self).map(Array.init) == data)
                #expect(try row.decode(column: "score", as: Double?.self) == score)
                #expect(try row.decodeNil(column: "name") == (name == nil))
                #expect(throws: (any Error).self) { try row.decode(column: "absent", as: String.self) }
            }
        }
    }

    @Test("a failed statement says why, and the connection and the statement work afterwards")
    func errorsLeaveItUsable() async throws {
        try await withConnection { connection, database in
            try await database.insert(into: "t").columns("id", "name").values(1, "taken").run()
            let insert = { (id: Int) in
                try await database.insert(into: "t").columns("id", "name").values(id, "taken").run()
            }
            await #expect {
                try await insert(2)
            } throws: { error in
                StoreDialect.uniqueViolation(in: error, columns: ["id", "name"]) == "name"
                    && "\(error)".contains("UNIQUE constraint failed: t.name")
            }
            try await database.update("t").set("name", to: "moved").where("id", .equal, 1).run()
            try await insert(2)
            await #expect(throws: SQLiteStatementError.self) {
                try await database.raw("SELEKT 1").run()
            }
            await #expect(throws: SQLiteStatementError.self) {
                try await database.raw("SELECT * FROM missing_table").run()
            }
            // One value for two placeholders.
            await #expect {
                try await database.execute(sql: SerializedSQL(sql: "SELECT ?, ?", binds: [1])) { _ in }
            } throws: { error in
                "\(error)".contains("takes 2 values, 1 were given")
            }
            #expect(try await database.select().column(SQLFunction("count", args: SQLLiteral.all)).from("t").first()?
                .decode(column: "count(*)", as: Int.self) == 2)
            await connection.close()
            await #expect {
                try await database.raw("SELECT 1").run()
            } throws: { error in
                "\(error)".contains("closed")
            }
        }
    }

    @Test("20 tasks at once, 400 statements: each gets its own rows")
    func concurrentStatements() async throws {
        try await withConnection { _, database in
            try await withThrowingTaskGroup(of: Void.self) { group in
                for task in 0..<20 {
                    group.addTask {
                        for step in 0..<10 {
                            let id = task * 100 + step
                            try await database.insert(into: "t").columns("id", "name").values(id, "row \(id)").run()
                            let name = try await database.select().column("name").from("t").where("id", .equal, id)
                                .first(decodingColumn: "name", as: String.self)
                            #expect(name == "row \(id)")
                        }
                    }
                }
                try await group.waitForAll()
            }
            #expect(try await database.raw("SELECT count(*) AS n FROM t").first(decodingColumn: "n", as: Int.self) == 200)
        }
    }
}

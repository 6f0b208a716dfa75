import Foundation
import NIOCore
import NIOPosix
import SQLKit
import SQLiteNIO
import VaporCSQLite
import StoreTesting
import Testing
@testable import SesameStore

/// Group commit on the shared SQLite connection: statements that queued together commit
/// together, and each caller is told exactly what the file holds (issue #50).
@Suite("Store: SQLite group commit")
struct SQLiteGroupCommitTests {
    @Test("statements are grouped by their first keyword; anything but data statements runs alone")
    func kinds() {
        typealias Kind = SQLiteGroupCommit.Kind
        #expect(Kind("SELECT 1") == .read)
        #expect(Kind("  \n\tselect * FROM t") == .read)
        #expect(Kind("(SELECT 1) UNION SELECT 2") == .read)
        for write in ["INSERT INTO t VALUES (1)", "update t SET a = 1", "Delete FROM t", "REPLACE INTO t VALUES (1)",
                      "WITH x AS (SELECT 1) INSERT INTO t SELECT * FROM x"] {
            #expect(Kind(write) == .write, "\(write)")
        }
        for other in ["PRAGMA journal_mode = WAL", "CREATE TABLE t (a)", "ALTER TABLE t ADD b", "DROP INDEX i",
                      "BEGIN", "COMMIT", "SAVEPOINT s", "VACUUM", "-- SELECT\nSELECT 1", "", "   ",
                      "SELECTED", String(repeating: "x", count: 100_000), "é SELECT"] {
            #expect(Kind(other) == .other, "\(other.prefix(20))")
        }
    }

    /// A scripted connection: records what ran, fails the statements named, and can end the
    /// transaction on an error (as `SQLITE_FULL` may).
    private final class Script {
        var ran: [String] = []
        var inTransaction = false
        var failing: Set<String> = []
        var endsTransaction: Set<String> = []
        var failCommit = false

        func execute(_ sql: String, _ binds: [SQLiteData]) -> Result<SQLiteRows, any Error> {
            ran.append(sql)
            switch sql {
            case "BEGIN IMMEDIATE": inTransaction = true
            case "COMMIT":
                if failCommit { return .failure(SQLiteStatementError(code: SQLITE_IOERR, message: "disk I/O error")) }
                inTransaction = false
            case "ROLLBACK": inTransaction = false
            default: break
            }
            if failing.contains(sql) {
                if endsTransaction.contains(sql) { inTransaction = false }
                return .failure(SQLiteStatementError(code: SQLITE_FULL, message: "\(sql) failed"))
            }
            return .success(SQLiteRows(columns: SQLiteColumns(names: ["sql"]), values: [[.text(sql)]]))
        }

        func run(_ sqls: [String]) -> [Result<SQLiteRows, any Error>] {
            SQLiteGroupCommit.run(sqls.map { ($0, []) }, execute: execute, inTransaction: { self.inTransaction })
        }
    }

    private func answered(_ result: Result<SQLiteRows, any Error>) -> String? {
        guard case .success(let rows) = result, case .text(let sql) = rows.values.first?.first else { return nil }
        return sql
    }

    @Test("writes that queued together run in one transaction; reads alone and other statements run outside one")
    func grouping() {
        let script = Script()
        let results = script.run(["INSERT a", "SELECT b", "PRAGMA c", "SELECT d", "SELECT e", "UPDATE f"])
        #expect(script.ran == ["BEGIN IMMEDIATE", "INSERT a", "SELECT b", "COMMIT", "PRAGMA c",
                               "BEGIN IMMEDIATE", "SELECT d", "SELECT e", "UPDATE f", "COMMIT"])
        #expect(results.map(answered) == ["INSERT a", "SELECT b", "PRAGMA c", "SELECT d", "SELECT e", "UPDATE f"])

        let reads = Script()
        _ = reads.run(["SELECT a", "SELECT b"])
        #expect(reads.ran == ["SELECT a", "SELECT b"], "reads commit nothing: no transaction")
        let single = Script()
        _ = single.run(["INSERT a"])
        #expect(single.ran == ["INSERT a"], "one statement alone commits itself")
    }

    @Test("a statement that fails alone fails alone; the others of its group commit")
    func failureStaysWithItsStatement() {
        let script = Script()
        script.failing = ["INSERT b"]
        let results = script.run(["INSERT a", "INSERT b", "INSERT c"])
        #expect(script.ran == ["BEGIN IMMEDIATE", "INSERT a", "INSERT b", "INSERT c", "COMMIT"])
        #expect(results.map(answered) == ["INSERT a", nil, "INSERT c"])
    }

    @Test("an error that ends the transaction, or a failed COMMIT, runs the group again one statement at a time")
    func lostTransactionRunsAlone() {
        let ended = Script()
        ended.failing = ["INSERT b"]
        ended.endsTransaction = ["INSERT b"]
        let results = ended.run(["INSERT a", "INSERT b", "INSERT c"])
        #expect(ended.ran == ["BEGIN IMMEDIATE", "INSERT a", "INSERT b", "INSERT a", "INSERT b", "INSERT c"])
        #expect(results.map(answered) == ["INSERT a", nil, "INSERT c"])

        let commit = Script()
        commit.failCommit = true
        let afterCommit = commit.run(["INSERT a", "INSERT b"])
        #expect(commit.ran == ["BEGIN IMMEDIATE", "INSERT a", "INSERT b", "COMMIT", "ROLLBACK", "INSERT a", "INSERT b"])
        #expect(afterCommit.map(answered) == ["INSERT a", "INSERT b"])

        let busy = Script()
        busy.failing = ["BEGIN IMMEDIATE"]
        _ = busy.run(["INSERT a", "INSERT b"])
        #expect(busy.ran == ["BEGIN IMMEDIATE", "INSERT a", "INSERT b"], "no transaction: each on its own")
    }

    @Test("inside a transaction already (a BEGIN run alone), a group does not nest one")
    func noNesting() {
        let script = Script()
        script.inTransaction = true
        _ = script.run(["INSERT a", "INSERT b"])
        #expect(script.ran == ["INSERT a", "INSERT b"])
    }

    @Test("on a real file: 40 writes queued behind a slow statement commit as groups; each caller is told what a second connection then reads")
    func realFile() async throws {
        let sandbox = try StoreSandbox.make()
        defer { sandbox.remove() }
        let pool = NIOThreadPool(numberOfThreads: 2)
        pool.start()
        let path = sandbox.databaseURL.path
        let connection = try await SQLiteSharedConnection.open(path: path, busyTimeoutMilliseconds: 1_000, threadPool: pool)
        let reader = try await SQLiteSharedConnection.open(path: path, busyTimeoutMilliseconds: 1_000, threadPool: pool)
        let database = SQLiteStoreDatabase(connection: connection, logger: StoreSamples.logger)
        let other = SQLiteStoreDatabase(connection: reader, logger: StoreSamples.logger)
        var failure: (any Error)?
        do {
            try await writesBehindASlowStatement(connection, database, other)
        } catch {
            failure = error
        }
        await connection.close()
        await reader.close()
        try await pool.shutdownGracefully()
        if let failure { throw failure }
    }

    private func writesBehindASlowStatement(
        _ connection: SQLiteSharedConnection, _ database: any SQLDatabase, _ other: any SQLDatabase
    ) async throws {
        try await database.raw("PRAGMA journal_mode = WAL").run()
        try await database.raw("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT UNIQUE)").run()
        try await database.insert(into: "t").columns("id", "name").values(0, "taken").run()

        // A statement that keeps the connection busy while the writes queue behind it.
        let slow = Task {
            try await database.raw(
                "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 2000000) SELECT count(*) AS n FROM c"
            ).first(decodingColumn: "n", as: Int.self)
        }
        while !(connection.queueStatistics.draining && connection.queueStatistics.waiting == 0) { await Task.yield() }
        // Every fourth insert takes a name already taken: it fails, and only it.
        let told = try await withThrowingTaskGroup(of: (Int, Bool).self) { group in
            for id in 1...40 {
                group.addTask {
                    let name = id % 4 == 0 ? "taken" : "row \(id)"
                    do {
                        try await database.insert(into: "t").columns("id", "name").values(id, name).run()
                    } catch {
                        #expect(StoreDialect.uniqueViolation(in: error, columns: ["name"]) == "name")
                        return (id, false)
                    }
                    // Committed before answered: a second connection sees the row now.
                    let seen = try await other.select().column("name").from("t").where("id", .equal, id)
                        .first(decodingColumn: "name", as: String.self)
                    #expect(seen == name, "row \(id) is answered as written but not in the file")
                    return (id, true)
                }
            }
            return try await group.reduce(into: [Int: Bool]()) { $0[$1.0] = $1.1 }
        }
        #expect(try await slow.value == 2_000_000)
        #expect(connection.queueStatistics.largestGroup > 1, "the writes queued behind the slow statement form groups")
        for id in 1...40 { #expect(told[id] == (id % 4 != 0), "insert \(id)") }
        let stored = try await other.select().column("id").from("t").where("id", .greaterThan, 0)
            .all(decodingColumn: "id", as: Int.self)
        #expect(Set(stored) == Set((1...40).filter { $0 % 4 != 0 }))
    }
}

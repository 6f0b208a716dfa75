import Foundation
import SesameStore
import StoreTesting
import Testing

/// `--database` / `SESAME_DATABASE_URL`: the admin commands and `serve` use a PostgreSQL
/// database instead of the data directory's SQLite file, and a bad URL, a wrong password or an
/// unreachable server is one clear line and exit code 1, without the password.
@Suite("sesame --database (PostgreSQL)")
struct DatabaseOptionTests {
    @Test("a malformed URL or a pool size out of range is one line naming the option")
    func malformed() async throws {
        let temp = try TempDirectory("db")
        defer { temp.remove() }
        let scheme = try await CLIProcess.run(["client", "list", "--data-dir", temp.path("data"), "--database", "mysql://x/y"])
        #expect(scheme.status == 1)
        #expect(scheme.stderrLines.count == 1 && scheme.stderr.contains("--database") && scheme.stderr.contains("postgres://"), "\(scheme)")
        let mode = try await CLIProcess.run([
            "client", "list", "--data-dir", temp.path("data"), "--database", "postgres://u:p@h/db?sslmode=allow",
        ])
        #expect(mode.status == 1 && mode.stderr.contains("verify-full"), "\(mode)")
        let pool = try await CLIProcess.run([
            "client", "list", "--data-dir", temp.path("data"), "--database", "postgres://u:p@h/db", "--database-pool-size", "0",
        ])
        #expect(pool.status == 1 && pool.stderr.contains("--database-pool-size"), "\(pool)")
    }

    @Test(
        "admin commands share one PostgreSQL database; a wrong password is one line without the password",
        .enabled(if: StoreBackend.postgresURL != nil || StoreBackend.postgresRequired, "no PostgreSQL here; CI runs this"))
    func sharedDatabase() async throws {
        let sandbox = try await StoreSandbox.make(.postgres)
        let temp = try TempDirectory("db")
        defer { temp.remove() }
        let url = try #require(sandbox.postgres)
        let text = "postgres://\(url.username):\(url.password ?? "")@\(url.host):\(url.port)/\(url.database)?sslmode=disable"

        let added = try await CLIProcess.run([
            "client", "add", "pg-app", "--redirect-uri", "com.example.pg:/cb", "--data-dir", temp.path("one"), "--database", text,
        ])
        #expect(added.status == 0, "\(added)")
        // Another data directory (another machine) with the same database sees the client.
        let listed = try await CLIProcess.run(
            ["client", "list", "--json", "--data-dir", temp.path("two")], environment: ["SESAME_DATABASE_URL": text])
        #expect(listed.status == 0 && listed.stdout.contains("pg-app"), "\(listed)")
        // The SQLite file of that directory was never used.
        #expect(!FileManager.default.fileExists(atPath: temp.path("two") + "/sesame.sqlite"))

        let wrong = text.replacingOccurrences(of: ":\(url.password ?? "")@", with: ":not-the-password@")
        let refused = try await CLIProcess.run(["client", "list", "--data-dir", temp.path("one"), "--database", wrong])
        #expect(refused.status == 1)
        #expect(refused.stderrLines.count == 1, "\(refused)")
        #expect(refused.stderr.contains("password authentication failed"), "\(refused)")
        #expect(!refused.stderr.contains("not-the-password"))
        await sandbox.dispose()
    }
}

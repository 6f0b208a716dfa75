import Foundation
import Testing

/// `sesame db status|migrate|backup` on the embedded SQLite database.
@Suite("sesame db")
struct DatabaseCommandTests {
    @Test("status lists pending migrations without applying them; migrate applies them once; status is then up to date")
    func statusAndMigrate() async throws {
        let temp = try TempDirectory("db")
        defer { temp.remove() }
        let data = temp.path("data")
        let fresh = try await CLIProcess.run(["db", "status", "--data-dir", data])
        #expect(fresh.status == 0, "\(fresh)")
        #expect(fresh.stdout.contains("Pending migrations: 1, 2"), "\(fresh)")
        let again = try await CLIProcess.run(["db", "status", "--data-dir", data])
        #expect(again.stdout.contains("Pending migrations: 1, 2"), "status must not migrate: \(again)")

        let migrated = try await CLIProcess.run(["db", "migrate", "--data-dir", data])
        #expect(migrated.status == 0 && migrated.stdout.contains("applied"), "\(migrated)")
        let twice = try await CLIProcess.run(["db", "migrate", "--data-dir", data, "--json"])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(twice.stdout.utf8)) as? [String: Any])
        #expect((report["pending"] as? [Int])?.isEmpty == true)
        #expect((report["applied"] as? [Int])?.contains(1) == true)
        let upToDate = try await CLIProcess.run(["db", "status", "--data-dir", data])
        #expect(upToDate.stdout.contains("Up to date."), "\(upToDate)")
    }

    @Test("backup writes a consistent copy that opens as a store; an existing file is refused in one line")
    func backup() async throws {
        let temp = try TempDirectory("db")
        defer { temp.remove() }
        let data = temp.path("data")
        let added = try await CLIProcess.run([
            "client", "add", "backed-up", "--redirect-uri", "com.example.b:/cb", "--data-dir", data,
        ])
        #expect(added.status == 0, "\(added)")
        try FileManager.default.createDirectory(atPath: temp.path("restored"), withIntermediateDirectories: true)
        let copy = temp.path("restored") + "/sesame.sqlite"
        let backup = try await CLIProcess.run(["db", "backup", copy, "--data-dir", data])
        #expect(backup.status == 0, "\(backup)")
        let listed = try await CLIProcess.run(["client", "list", "--data-dir", temp.path("restored")])
        #expect(listed.status == 0 && listed.stdout.contains("backed-up"), "\(listed)")

        let refused = try await CLIProcess.run(["db", "backup", copy, "--data-dir", data])
        #expect(refused.status == 1)
        #expect(refused.stderrLines.count == 1 && refused.stderr.contains("already exists"), "\(refused)")
    }
}

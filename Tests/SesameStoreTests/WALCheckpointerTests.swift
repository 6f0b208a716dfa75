import Foundation
import SQLKit
import Testing
@testable import SesameStore
import StoreTesting

/// Checkpoints run from the backend's second connection, not from the requests' commits.
@Suite("Store: WAL checkpoints in the background")
struct WALCheckpointerTests {
    @Test("committed pages reach the database file without the serving connection checkpointing")
    func checkpointsFromSecondConnection() async throws {
        let sandbox = try StoreSandbox.make()
        defer { sandbox.remove() }
        let backend = try await SQLiteBackend.open(
            at: sandbox.databaseURL, logger: StoreSamples.logger, checkpointInterval: .milliseconds(50))
        let db = backend.database
        // Only the checkpointer may copy pages now.
        try await db.raw("PRAGMA wal_autocheckpoint = 0").run()
        try await db.raw("CREATE TABLE filler (value TEXT NOT NULL)").run()
        let sizeBefore = Self.size(of: sandbox.databaseURL)
        for _ in 0..<200 {
            try await db.insert(into: "filler").columns("value")
                .values(String(repeating: "x", count: 500)).run()
        }
        var copied = false
        for _ in 0..<60 where !copied {
            try await Task.sleep(for: .milliseconds(50))
            copied = Self.size(of: sandbox.databaseURL) > sizeBefore + 50_000
        }
        #expect(copied, "the database file did not grow: no checkpoint ran")
        try await backend.close()
    }

    private static func size(of url: URL) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? Int) ?? 0
    }
}

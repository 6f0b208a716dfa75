import Foundation
import SesameProtocol
import Testing
@testable import SesameStore
import StoreTesting

/// Persistence across a restart: close the store, reopen the same file.
@Suite("Store: restart and schema")
struct StoreRestartTests {
    @Test("clients, users, keys and refresh tokens survive close and reopen")
    func restartKeepsEverything() async throws {
        let sandbox = try StoreSandbox.make()
        defer { sandbox.remove() }
        let now = StoreSamples.now()

        let first = try await sandbox.open()
        let client = StoreSamples.client("demo")
        let user = StoreSamples.user("alice")
        let token = StoreSamples.refreshToken(userID: user.id, expiresAt: now.addingTimeInterval(3600))
        try await first.upsertClient(client)
        try await first.createUser(user)
        try await first.insertRefreshToken(token)
        let key = SigningKeyRecord(
            kid: "k1", algorithm: "RS256", sealedPrivateKey: "c2VhbGVk", createdAt: now, activatesAt: now)
        try await first.insertSigningKey(key)
        try await first.close()
        try await first.close()  // idempotent

        let second = try await sandbox.open()
        #expect(try await second.client(id: "demo") == client)
        #expect(try await second.user(id: user.id) == user)
        #expect(try await second.refreshToken(digest: token.tokenDigest) == token)
        #expect(try await second.signingKeys() == [key])
        let rotated = try await second.rotateRefreshToken(digest: token.tokenDigest, into: StoreSamples.successor(at: now))
        guard case .redeemed = rotated else { Issue.record("the token did not rotate after restart"); return }
        try await second.close()
    }

    @Test("the database runs in WAL mode and migrations are recorded once")
    func walAndMigrations() async throws {
        try await withSandboxStore { store, sandbox in
            let mode = try await store.database.raw("PRAGMA journal_mode").first(decodingColumn: "journal_mode", as: String.self)
            #expect(mode?.lowercased() == "wal")
            let checkpoint = try await store.database.raw("PRAGMA wal_autocheckpoint").first()
            #expect(try checkpoint?.decode(column: "wal_autocheckpoint", as: Int.self) == SQLiteBackend.checkpointPages)
            let limit = try await store.database.raw("PRAGMA journal_size_limit").first()
            #expect(try limit?.decode(column: "journal_size_limit", as: Int.self) == SQLiteBackend.walSizeLimitBytes)
            try await store.migrate()
            let reopened = try await sandbox.open()
            let versions = try await reopened.database.select().column("version").from("schema_migrations")
                .all(decodingColumn: "version", as: Int.self)
            #expect(versions == StoreMigrations.all.map(\.version))
            try await reopened.close()
        }
    }

    @Test("a database migrated by a newer Sesame is refused with a clear error, and left as it is")
    func newerSchema() async throws {
        let sandbox = try StoreSandbox.make()
        defer { sandbox.remove() }
        let store = try await sandbox.open()
        try await store.database.insert(into: "schema_migrations").columns("version", "name", "applied_at")
            .values(99, "from the future", 0.0).run()
        try await store.close()
        await #expect {
            _ = try await sandbox.open()
        } throws: { error in
            guard case StoreError.unavailable(let reason) = error else { return false }
            return reason.contains("newer Sesame (schema version 99")
        }
        let raw = try await SQLiteBackend.open(at: sandbox.databaseURL, logger: StoreSamples.logger)
        let versions = try await raw.database.select().column("version").from("schema_migrations")
            .all(decodingColumn: "version", as: Int.self)
        try await raw.close()
        #expect(versions == (StoreMigrations.all.map(\.version) + [99]).sorted())
    }

    @Test("opening a file that is not a database fails with a clear error")
    func corruptFile() async throws {
        let sandbox = try StoreSandbox.make()
        defer { sandbox.remove() }
        try Data(repeating: 0x42, count: 4096).write(to: sandbox.databaseURL)
        await #expect {
            _ = try await sandbox.open()
        } throws: { error in
            guard case StoreError.unavailable(let reason) = error else { return false }
            return reason.contains(sandbox.databaseURL.path)
        }
    }
}

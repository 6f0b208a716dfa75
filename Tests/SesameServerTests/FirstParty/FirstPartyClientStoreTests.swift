import SesameTesting
import Foundation
import SQLKit
import SesameProtocol
import Testing
import StoreTesting
@testable import SesameServer
@testable import SesameStore

/// `ClientRecord.firstParty`: the `clients.first_party` column (migration 101), the seed key
/// `first_party` and ``ClientSpec/firstParty``.
@Suite("First-party clients: store, migration, seed and admin (real SQLite)")
struct FirstPartyClientStoreTests {
    @Test("first_party persists across a reopen and a server restart; migrations are idempotent")
    func persists() async throws {
        try await withSandboxStore { store, sandbox in
            try await store.upsertClient(ClientRecord(clientID: "own", name: "Own", firstParty: true))
            try await store.upsertClient(ClientRecord(clientID: "rp", name: "RP"))
            try await store.migrate()
            let reopened = try await sandbox.open()
            #expect(try await reopened.client(id: "own")?.firstParty == true)
            #expect(try await reopened.client(id: "rp")?.firstParty == false)
            var own = try #require(try await reopened.client(id: "own"))
            own.firstParty = false
            try await reopened.upsertClient(own)
            #expect(try await reopened.client(id: "own")?.firstParty == false, "an upsert updates the flag")
            try await reopened.close()
        }

        let server = try await TestServer.start()
        let restarted = try await server.restart()
        #expect(try await restarted.store.client(id: Fixtures.nativeApp)?.firstParty == true)
        #expect(try await restarted.store.client(id: Fixtures.secondApp)?.firstParty == false)
        try await restarted.stop()
    }

    @Test("a database from before migration 101 gets the column; its clients become third-party")
    func migratesOldDatabase() async throws {
        try await withSandboxStore { store, sandbox in
            try await store.upsertClient(ClientRecord(clientID: "old", name: "Old", firstParty: true))
            // Back to the schema of version 100.
            try await store.database.raw("ALTER TABLE clients DROP COLUMN first_party").run()
            try await store.database.delete(from: "schema_migrations").where("version", .equal, 101).run()
            let reopened = try await sandbox.open()
            #expect(try await reopened.client(id: "old")?.firstParty == false)
            try await reopened.upsertClient(ClientRecord(clientID: "new", name: "New", firstParty: true))
            #expect(try await reopened.client(id: "new")?.firstParty == true)
            try await reopened.close()
        }
    }

    @Test("seed key first_party: a boolean, default false, applied by the Seeder; ServerAdmin stores the spec")
    func seedAndAdmin() async throws {
        let seed = try SeedConfiguration.decode(
            Data(
                #"{"clients":[{"client_id":"own","redirect_uris":["com.example.own:/cb"],"first_party":true},{"client_id":"rp","redirect_uris":["https://rp.example/cb"]}]}"#
                    .utf8),
            source: "seed.json")
        #expect(try seed.clients[0].record(secretHash: nil).firstParty)
        #expect(try seed.clients[1].record(secretHash: nil).firstParty == false)
        do {
            _ = try SeedConfiguration.decode(
                Data(#"{"clients":[{"client_id":"n","redirect_uris":["com.example.n:/cb"],"first_party":"yes"}]}"#.utf8),
                source: "seed.json")
            Issue.record("a string first_party was accepted")
        } catch let error as SeedConfigurationError {
            #expect(error.path == "clients[0].first_party")
        }

        try await withSandboxStore { store, _ in
            _ = try await Seeder(store: store, hasher: StoreSamples.hasher).apply(seed)
            #expect(try await store.client(id: "own")?.firstParty == true)
            #expect(try await store.client(id: "rp")?.firstParty == false)
        }

        let sandbox = try StoreSandbox.make()
        defer { sandbox.remove() }
        let admin = try await ServerAdmin.open(dataDirectory: sandbox.dataDirectory, logger: StoreSamples.logger)
        let (client, _) = try await admin.addClient(
            ClientSpec(clientID: "own", redirectURIs: ["com.example.own:/cb"], firstParty: true))
        #expect(client.firstParty)
        _ = try await admin.addClient(ClientSpec(clientID: "rp", redirectURIs: ["https://rp.example/cb"]))
        #expect(try await admin.store.client(id: "own")?.firstParty == true)
        #expect(try await admin.store.client(id: "rp")?.firstParty == false)
        try await admin.close()
    }
}

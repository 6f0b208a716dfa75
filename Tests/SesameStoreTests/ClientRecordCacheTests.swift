import TestSupport
import Foundation
import SesameProtocol
import Testing
@testable import SesameStore
import StoreTesting

/// The client-record cache of the store (`ClientRecordCache`): writes through the same store
/// are seen at once, writes by another process (a second store on the same SQLite file, as the
/// `sesame client` commands do) within the cache lifetime.
@Suite("Store: client record cache")
struct ClientRecordCacheTests {
    @Test("a client changed or removed through the same store is seen at once")
    func sameStoreWritesInvalidate() async throws {
        try await withSandboxStore { store, _ in
            var client = StoreSamples.client("app")
            try await store.upsertClient(client)
            #expect(try await store.client(id: "app")?.name == client.name)  // now cached
            client.name = "Renamed"
            try await store.upsertClient(client)
            #expect(try await store.client(id: "app")?.name == "Renamed")
            #expect(try await store.removeClient(id: "app"))
            #expect(try await store.client(id: "app") == nil)
        }
    }

    @Test("another process's change is seen once the cache lifetime has passed")
    func otherProcessWithinLifetime() async throws {
        let sandbox = try StoreSandbox.make()
        defer { sandbox.remove() }
        let lifetime = Duration.seconds(1)
        let server = try await sandbox.open(clientCacheLifetime: lifetime)
        let cli = try await sandbox.open(clientCacheLifetime: .zero)
        var client = StoreSamples.client("app")
        try await server.upsertClient(client)
        let clock = ContinuousClock()
        let cachedAt = clock.now
        #expect(try await server.client(id: "app")?.name == client.name)

        client.name = "Changed elsewhere"
        try await cli.upsertClient(client)
        let stale = try await server.client(id: "app")?.name
        if clock.now - cachedAt < lifetime {
            // Served from the cache: the other connection's write is not read yet.
            #expect(stale == StoreSamples.client("app").name)
        }
        #expect(try await eventually { try await server.client(id: "app")?.name == "Changed elsewhere" })

        #expect(try await cli.removeClient(id: "app"))
        #expect(try await eventually { try await server.client(id: "app") == nil })
        try await cli.close()
        try await server.close()
    }

    @Test(
        "on PostgreSQL another process's change reaches the cache at once (NOTIFY), however long the lifetime; key changes are heard",
        .enabled(if: StoreBackend.postgresURL != nil || StoreBackend.postgresRequired, "no PostgreSQL here (SESAME_TEST_DATABASE_URL)"))
    func otherProcessAtOnceOnPostgreSQL() async throws {
        let sandbox = try await StoreSandbox.make(.postgres)
        let server = try await sandbox.open(clientCacheLifetime: .seconds(3_600))
        let other = try await sandbox.open(clientCacheLifetime: .seconds(3_600))
        let heard = LockedState<[StoreChange]>([])
        server.observeChanges { change in heard.withLock { $0.append(change) } }
        #expect(try await eventually { server.changes.isListening })
        var client = StoreSamples.client("app")
        try await server.upsertClient(client)
        #expect(try await server.client(id: "app")?.name == client.name)  // cached for an hour

        client.name = "Changed elsewhere"
        try await other.upsertClient(client)
        let clock = ContinuousClock()
        let written = clock.now
        #expect(try await eventually { try await server.client(id: "app")?.name == "Changed elsewhere" })
        #expect(clock.now - written < .seconds(2), "heard, not expired: the lifetime is an hour")
        #expect(try await other.removeClient(id: "app"))
        #expect(try await eventually { try await server.client(id: "app") == nil })

        try await other.insertSigningKey(
            SigningKeyRecord(kid: "k1", algorithm: "ES256", sealedPrivateKey: "x", createdAt: Date(), activatesAt: Date()))
        #expect(try await eventually { heard.withLock { $0.contains(.signingKeys) } })
        try await other.close()
        try await server.close()
        await sandbox.dispose()
    }

    @Test("unknown client_ids are not cached: a client added elsewhere is found at once")
    func missesAreNotCached() async throws {
        let sandbox = try StoreSandbox.make()
        defer { sandbox.remove() }
        let server = try await sandbox.open(clientCacheLifetime: .seconds(60))
        let cli = try await sandbox.open(clientCacheLifetime: .zero)
        #expect(try await server.client(id: "late") == nil)
        try await cli.upsertClient(StoreSamples.client("late"))
        #expect(try await server.client(id: "late")?.clientID == "late")
        try await cli.close()
        try await server.close()
    }

    @Test("a read that began before a write is not remembered after it")
    func staleReadIsDropped() {
        let cache = ClientRecordCache(lifetime: .seconds(60))
        let before = cache.generation
        cache.forget("app")  // a write lands while the read is in flight
        cache.remember(StoreSamples.client("app"), readAt: before)
        #expect(cache.record(for: "app") == nil)
        cache.remember(StoreSamples.client("app"), readAt: cache.generation)
        #expect(cache.record(for: "app")?.clientID == "app")
    }

    @Test("a zero lifetime turns the cache off")
    func zeroLifetime() {
        let cache = ClientRecordCache(lifetime: .zero)
        cache.remember(StoreSamples.client("app"), readAt: cache.generation)
        #expect(cache.record(for: "app") == nil)
    }
}

import Foundation
import SesameProtocol
import Testing
@testable import SesameStore
import StoreTesting

/// CRUD of clients and users in the real SQLite store, including unique conflicts.
@Suite("Store: clients and users")
struct StoreRecordsTests {
    @Test("a client round-trips, upsert updates it but keeps created_at, remove reports existence", arguments: StoreBackend.available)
    func clientRoundTrip(backend: StoreBackend) async throws {
        try await withSandboxStore(backend) { store, _ in
            let client = StoreSamples.client("demo", secretHash: "$scrypt$ln=10,r=8,p=1$AAAAAAAAAAAAAAAAAAAAAA$BBBB")
            try await store.upsertClient(client)
            #expect(try await store.client(id: "demo") == client)

            var changed = client
            changed.redirectURIs = ["https://app.example.com/cb"]
            changed.grantTypes = [.authorizationCode, .clientCredentials]
            changed.idTokenSigningAlg = "ES256"
            changed.createdAt = Date(timeIntervalSince1970: 1)
            try await store.upsertClient(changed)
            let stored = try #require(try await store.client(id: "demo"))
            #expect(stored.redirectURIs == ["https://app.example.com/cb"])
            #expect(stored.grantTypes == [.authorizationCode, .clientCredentials])
            #expect(stored.idTokenSigningAlg == "ES256")
            #expect(stored.createdAt == client.createdAt)

            try await store.upsertClient(StoreSamples.client("another"))
            #expect(try await store.clients().map(\.clientID) == ["another", "demo"])
            #expect(try await store.removeClient(id: "demo"))
            #expect(try await store.removeClient(id: "demo") == false)
            #expect(try await store.client(id: "demo") == nil)
        }
    }

    @Test("removing a client removes its codes and refresh tokens", arguments: StoreBackend.available)
    func removeClientCascades(backend: StoreBackend) async throws {
        try await withSandboxStore(backend) { store, _ in
            let later = StoreSamples.now().addingTimeInterval(600)
            try await store.upsertClient(StoreSamples.client("demo"))
            let code = StoreSamples.code(expiresAt: later)
            let token = StoreSamples.refreshToken(expiresAt: later)
            try await store.insertAuthorizationCode(code)
            try await store.insertRefreshToken(token)
            try await store.removeClient(id: "demo")
            #expect(try await store.refreshToken(digest: token.tokenDigest) == nil)
            #expect(try await store.isRefreshFamilyRevoked(token.familyID))
            guard case .notFound = try await store.redeemAuthorizationCode(digest: code.codeDigest, now: StoreSamples.now())
            else { Issue.record("the code of a removed client was still redeemable"); return }
        }
    }

    @Test("a user round-trips with claims; lookups by username or email ignore case", arguments: StoreBackend.available)
    func userRoundTrip(backend: StoreBackend) async throws {
        try await withSandboxStore(backend) { store, _ in
            let alice = StoreSamples.user("Alice", email: "Alice@Example.COM")
            try await store.createUser(alice)
            #expect(alice.username == "alice")
            #expect(try await store.user(id: alice.id) == alice)
            #expect(try await store.user(login: "ALICE")?.id == alice.id)
            #expect(try await store.user(login: "alice@example.com")?.id == alice.id)
            #expect(try await store.user(login: "bob") == nil)
            let stored = try #require(try await store.user(id: alice.id))
            #expect(stored.claims.name == "Alice Example")
            #expect(stored.claims.sub == alice.id)
            #expect(stored.claims.email == "alice@example.com")
        }
    }

    @Test("usernames and emails are unique, case-insensitively, on create and update", arguments: StoreBackend.available)
    func uniqueConflicts(backend: StoreBackend) async throws {
        try await withSandboxStore(backend) { store, _ in
            let alice = StoreSamples.user("alice")
            try await store.createUser(alice)
            await #expect(throws: StoreError.conflict(field: "username")) {
                try await store.createUser(StoreSamples.user("ALICE", email: "other@example.com"))
            }
            await #expect(throws: StoreError.conflict(field: "email")) {
                try await store.createUser(StoreSamples.user("alice2", email: "Alice@Example.com"))
            }
            let bob = StoreSamples.user("bob")
            try await store.createUser(bob)
            var renamed = bob
            renamed.email = "ALICE@example.com"
            await #expect(throws: StoreError.conflict(field: "email")) {
                try await store.updateUser(renamed)
            }
            renamed.email = "robert@example.com"
            renamed.emailVerified = false
            try await store.updateUser(renamed)
            let stored = try #require(try await store.user(login: "robert@example.com"))
            #expect(stored.id == bob.id)
            #expect(stored.claims.email == "robert@example.com")
            #expect(stored.emailVerified == false)
            await #expect(throws: StoreError.notFound(what: "user missing")) {
                try await store.updateUser(UserRecord(id: "missing", username: "x", email: "x@example.com"))
            }
            #expect(try await store.users().map(\.username) == ["alice", "bob"])
        }
    }

    @Test("removing a user removes their sessions and tokens and revokes their families", arguments: StoreBackend.available)
    func removeUserCascades(backend: StoreBackend) async throws {
        try await withSandboxStore(backend) { store, _ in
            let alice = StoreSamples.user("alice")
            try await store.createUser(alice)
            let later = StoreSamples.now().addingTimeInterval(600)
            let session = StoreSamples.session(userID: alice.id, expiresAt: later)
            let token = StoreSamples.refreshToken(userID: alice.id, expiresAt: later)
            let othersToken = StoreSamples.refreshToken(userID: "someone-else", expiresAt: later)
            try await store.insertBrowserSession(session)
            try await store.insertRefreshToken(token)
            try await store.insertRefreshToken(othersToken)
            #expect(try await store.removeUser(id: alice.id))
            #expect(try await store.removeUser(id: alice.id) == false)
            #expect(try await store.user(id: alice.id) == nil)
            #expect(try await store.browserSession(idDigest: session.idDigest) == nil)
            #expect(try await store.refreshToken(digest: token.tokenDigest) == nil)
            #expect(try await store.isRefreshFamilyRevoked(token.familyID))
            #expect(try await store.refreshToken(digest: othersToken.tokenDigest) != nil)
            #expect(try await store.isRefreshFamilyRevoked(othersToken.familyID) == false)
        }
    }

    @Test("signing keys insert, update, list and remove", arguments: StoreBackend.available)
    func signingKeys(backend: StoreBackend) async throws {
        try await withSandboxStore(backend) { store, _ in
            let now = StoreSamples.now()
            let first = SigningKeyRecord(
                kid: "k1", algorithm: "RS256", sealedPrivateKey: "c2VhbGVk", createdAt: now, activatesAt: now)
            var second = SigningKeyRecord(
                kid: "k2", algorithm: "ES256", sealedPrivateKey: "c2VhbGVk", createdAt: now.addingTimeInterval(1),
                activatesAt: now.addingTimeInterval(60))
            try await store.insertSigningKey(first)
            try await store.insertSigningKey(second)
            await #expect(throws: StoreError.conflict(field: "kid")) { try await store.insertSigningKey(first) }
            second.retiredAt = now.addingTimeInterval(120)
            second.expiresAt = now.addingTimeInterval(240)
            try await store.updateSigningKey(second)
            #expect(try await store.signingKeys() == [first, second])
            try await store.removeSigningKey(kid: "k1")
            #expect(try await store.signingKeys() == [second])
        }
    }
}

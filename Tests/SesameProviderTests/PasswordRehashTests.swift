import Foundation
import SesameStore
import StoreTesting
import Testing

@testable import SesameProvider

/// A password hash weaker than the server's scrypt cost is made again at the next sign-in
/// (`sesame serve --scrypt-cost` raised, as Keycloak rehashes when its password policy
/// changes), on SQLite and PostgreSQL: only after a right password, never to a lower cost, and
/// not over a password changed meanwhile (compare-and-set).
@Suite struct PasswordRehashTests {
    static let weak = ScryptPasswordHasher(logN: 4)
    static let strong = ScryptPasswordHasher(logN: 5)
    static let attempt = LoginAttempt(login: "alice", address: "192.0.2.7")

    @Test("a right password under a weaker hash is rehashed at the server's cost; a wrong one changes nothing", arguments: StoreBackend.available)
    func rehashedAfterRightPassword(_ backend: StoreBackend) async throws {
        try await withSandboxStore(backend) { store, _ in
            var alice = StoreSamples.user("alice")
            alice.passwordHash = try Self.weak.hash("correct horse")
            try await store.createUser(alice)
            let verifier = try CredentialVerifier(hasher: Self.strong, pool: PasswordCheckCostTests.InlinePool(), rehashStore: store)
            let lookup: () async throws -> UserRecord? = { try await store.user(id: alice.id) }

            guard case .rejected = try await verifier.checkPassword("wrong horse", attempt: Self.attempt, user: lookup) else {
                Issue.record("a wrong password was not refused")
                return
            }
            #expect(try await store.user(id: alice.id)?.passwordHash == alice.passwordHash, "a wrong password rehashes nothing")

            guard case .accepted(let signedIn) = try await verifier.checkPassword("correct horse", attempt: Self.attempt, user: lookup)
            else {
                Issue.record("the right password was refused")
                return
            }
            let stored = try #require(try await store.user(id: alice.id)?.passwordHash)
            #expect(stored.hasPrefix("$scrypt$ln=5,"), "\(stored)")
            #expect(signedIn.passwordHash == stored)
            #expect(Self.strong.verify("correct horse", against: stored))
            #expect(try await store.user(id: alice.id)?.updatedAt == alice.updatedAt, "a rehash is not a change of the user")

            // A server at a lower cost keeps the stronger hash.
            let lower = try CredentialVerifier(hasher: Self.weak, pool: PasswordCheckCostTests.InlinePool(), rehashStore: store)
            guard case .accepted = try await lower.checkPassword("correct horse", attempt: Self.attempt, user: lookup) else {
                Issue.record("the right password was refused at the lower cost")
                return
            }
            #expect(try await store.user(id: alice.id)?.passwordHash == stored, "never rehashed to a lower cost")
        }
    }

    @Test("a password changed between the lookup and the rehash wins")
    func changedPasswordWins() async throws {
        try await withSandboxStore { store, _ in
            var alice = StoreSamples.user("alice")
            alice.passwordHash = try Self.weak.hash("correct horse")
            try await store.createUser(alice)
            let read = alice
            // Another request sets a new password after this sign-in read the user.
            var changed = alice
            changed.passwordHash = try Self.strong.hash("a new password")
            try await store.updateUser(changed)

            let verifier = try CredentialVerifier(hasher: Self.strong, pool: PasswordCheckCostTests.InlinePool(), rehashStore: store)
            guard case .accepted = try await verifier.checkPassword("correct horse", attempt: Self.attempt, user: { read }) else {
                Issue.record("the password the lookup read was refused")
                return
            }
            #expect(try await store.user(id: alice.id)?.passwordHash == changed.passwordHash, "the new password stays")
        }
    }
}

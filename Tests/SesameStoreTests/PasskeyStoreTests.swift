import Foundation
import SesameProtocol
import StoreTesting
import Testing
@testable import SesameStore

/// Passkeys and WebAuthn challenges (``PasskeyStore``) in each store: a credential id is
/// registered once; rename and removal touch only the owner's; a use is recorded only over the
/// counter it was checked against (two concurrent uses: one wins); a challenge is handed to one
/// caller only, through another connection and under concurrency, and not after it expired;
/// account removal takes the passkeys with it.
@Suite("Store: passkeys and WebAuthn challenges")
struct PasskeyStoreTests {
    static func passkey(_ id: String, user: String, at now: Date) -> PasskeyRecord {
        PasskeyRecord(
            credentialID: id, userID: user, publicKey: Data([0xa5, 0x01, 0x02]), signCount: 0, uvInitialized: true,
            backupEligible: false, backupState: false, transports: ["internal"], aaguid: "00", attestationFormat: "none",
            name: "Laptop", createdAt: now)
    }

    @Test("a credential id is registered once; list, rename and remove are the owner's; a use needs the counter it was checked against", arguments: StoreBackend.available)
    func passkeys(backend: StoreBackend) async throws {
        try await withSandboxStore(backend) { store, sandbox in
            let now = StoreSamples.now()
            let first = Self.passkey("cred-1", user: "user-1", at: now)
            try await store.insertPasskey(first)
            try await store.insertPasskey(Self.passkey("cred-2", user: "user-1", at: now.addingTimeInterval(1)))
            await #expect(throws: StoreError.self) { try await store.insertPasskey(Self.passkey("cred-1", user: "user-2", at: now)) }
            #expect(try await store.passkey(credentialID: "cred-1") == first)
            #expect(try await store.passkeys(userID: "user-1").map(\.credentialID) == ["cred-1", "cred-2"])
            #expect(try await store.renamePasskey(credentialID: "cred-1", userID: "user-2", name: "x") == false)
            #expect(try await store.renamePasskey(credentialID: "cred-1", userID: "user-1", name: "Phone"))
            #expect(try await store.passkey(credentialID: "cred-1")?.name == "Phone")

            // Two uses checked against counter 0: one is recorded.
            let connection = try await sandbox.open()
            let wins = try await withThrowingTaskGroup(of: Bool.self) { group in
                for (index, writer) in [store, connection, store, connection].enumerated() {
                    group.addTask {
                        try await writer.recordPasskeyUse(
                            credentialID: "cred-1", expectedSignCount: 0, signCount: UInt32(5 + index), backupState: true,
                            uvInitialized: true, at: now)
                    }
                }
                return try await group.reduce(into: 0) { $0 += $1 ? 1 : 0 }
            }
            #expect(wins == 1)
            let used = try #require(try await store.passkey(credentialID: "cred-1"))
            #expect(used.signCount >= 5 && used.backupState && used.lastUsedAt == now)
            try await connection.close()

            #expect(try await store.removePasskey(credentialID: "cred-2", userID: "user-2") == false)
            #expect(try await store.removePasskey(credentialID: "cred-2", userID: "user-1"))
            #expect(try await store.passkeys(userID: "user-1").count == 1)
        }
    }

    @Test("a challenge is taken once, also through another connection and under concurrency, and not after it expired", arguments: StoreBackend.available)
    func challenges(backend: StoreBackend) async throws {
        try await withSandboxStore(backend) { store, sandbox in
            let now = StoreSamples.now()
            func challenge(_ digest: String, lifetime: TimeInterval = 300) -> WebAuthnChallengeRecord {
                WebAuthnChallengeRecord(
                    challengeDigest: digest, purpose: .signIn, userID: nil, binding: "b", clientID: "app", payload: "{}",
                    createdAt: now, expiresAt: now.addingTimeInterval(lifetime))
            }
            try await store.insertWebAuthnChallenge(challenge("c1"))
            let connection = try await sandbox.open()
            #expect(try await connection.consumeWebAuthnChallenge(digest: "c1", now: now) == challenge("c1"))
            #expect(try await store.consumeWebAuthnChallenge(digest: "c1", now: now) == nil, "used")

            try await store.insertWebAuthnChallenge(challenge("c2"))
            let taken = try await withThrowingTaskGroup(of: Bool.self) { group in
                for writer in [store, connection, store, connection] {
                    group.addTask { try await writer.consumeWebAuthnChallenge(digest: "c2", now: now) != nil }
                }
                return try await group.reduce(into: 0) { $0 += $1 ? 1 : 0 }
            }
            #expect(taken == 1)

            try await store.insertWebAuthnChallenge(challenge("c3", lifetime: 10))
            #expect(try await store.consumeWebAuthnChallenge(digest: "c3", now: now.addingTimeInterval(11)) == nil, "expired")
            try await connection.close()
        }
    }

    @Test("removing the user removes their passkeys and challenges, and only theirs", arguments: StoreBackend.available)
    func accountRemoval(backend: StoreBackend) async throws {
        try await withSandboxStore(backend) { store, _ in
            let now = StoreSamples.now()
            let user = UserRecord(username: "grace", email: "grace@example.com")
            let other = UserRecord(username: "hopper", email: "hopper@example.com")
            try await store.createUser(user)
            try await store.createUser(other)
            try await store.insertPasskey(Self.passkey("mine", user: user.id, at: now))
            try await store.insertPasskey(Self.passkey("theirs", user: other.id, at: now))
            try await store.insertWebAuthnChallenge(
                WebAuthnChallengeRecord(
                    challengeDigest: "reg", purpose: .registration, userID: user.id, binding: "b", clientID: nil, payload: nil,
                    createdAt: now, expiresAt: now.addingTimeInterval(300)))
            #expect(try await store.removeUser(id: user.id))
            #expect(try await store.passkey(credentialID: "mine") == nil)
            #expect(try await store.passkey(credentialID: "theirs") != nil)
            #expect(try await store.consumeWebAuthnChallenge(digest: "reg", now: now) == nil)
        }
    }
}

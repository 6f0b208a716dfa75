import Foundation
import SesameProtocol
import StoreTesting
import Testing
@testable import SesameStore

/// Native SSO device sessions and RFC 7523 assertion replay (``DeviceSessionStore``) in each
/// store: found by secret digest and by id, rotated, revoked with every token family issued in
/// them (with the reason the apps read), revoked per user but the current one, purged when
/// expired; and a client assertion's `jti` accepted once across connections.
@Suite("Store: Native SSO device sessions")
struct DeviceSessionStoreTests {
    @Test("a device session round-trips, rotates its secret, and its revocation revokes every family in it with signed_out_everywhere", arguments: StoreBackend.available)
    func lifecycle(backend: StoreBackend) async throws {
        try await withSandboxStore(backend) { store, _ in
            let now = StoreSamples.now()
            let session = DeviceSessionRecord(
                secretDigest: SecretDigest.of("secret-1"), userID: "user-1", appGroup: "acme",
                authentication: StoreSamples.authentication(), browserSessionID: "browser-1", createdAt: now,
                expiresAt: now.addingTimeInterval(3600))
            try await store.insertDeviceSession(session)
            #expect(try await store.deviceSession(secretDigest: SecretDigest.of("secret-1")) == session)
            #expect(try await store.deviceSession(id: session.id) == session)
            #expect(session.id.hasPrefix("ds_") && DeviceSessionRecord.isDeviceSessionID(session.id))

            try await store.rotateDeviceSecret(sessionID: session.id, newDigest: SecretDigest.of("secret-2"))
            #expect(try await store.deviceSession(secretDigest: SecretDigest.of("secret-1")) == nil)
            #expect(try await store.deviceSession(secretDigest: SecretDigest.of("secret-2"))?.id == session.id)

            // Two apps' families in the session, one elsewhere.
            for client in ["app-a", "app-b"] {
                try await store.upsertClient(StoreSamples.client(client))
                try await store.insertRefreshToken(
                    StoreSamples.refreshToken(family: "family-\(client)", clientID: client, sessionID: session.id, expiresAt: now.addingTimeInterval(600)))
            }
            try await store.insertRefreshToken(
                StoreSamples.refreshToken(family: "family-other", clientID: "app-a", sessionID: "sid-9", expiresAt: now.addingTimeInterval(600)))
            #expect(try await store.revokeDeviceSession(id: session.id, now: now))
            #expect(try await store.revokeDeviceSession(id: session.id, now: now) == false, "already revoked")
            #expect(try await store.deviceSession(id: session.id)?.isLive(at: now) == false)
            #expect(try await store.refreshFamilyRevocationReason("family-app-a") == .signedOutEverywhere)
            #expect(try await store.refreshFamilyRevocationReason("family-app-b") == .signedOutEverywhere)
            #expect(try await store.isRefreshFamilyRevoked("family-other") == false)
        }
    }

    @Test("a password change revokes the user's other device sessions but the current; account removal and the purge delete them", arguments: StoreBackend.available)
    func perUser(backend: StoreBackend) async throws {
        try await withSandboxStore(backend) { store, _ in
            let now = StoreSamples.now()
            func session(_ user: String, expires: TimeInterval = 3600) -> DeviceSessionRecord {
                DeviceSessionRecord(
                    secretDigest: SecretDigest.of(UUID().uuidString), userID: user, appGroup: "acme",
                    authentication: StoreSamples.authentication(userID: user), browserSessionID: nil, createdAt: now,
                    expiresAt: now.addingTimeInterval(expires))
            }
            let current = session("user-1")
            let other = session("user-1")
            let someoneElse = session("user-2")
            let expired = session("user-2", expires: 10)
            for record in [current, other, someoneElse, expired] { try await store.insertDeviceSession(record) }
            try await store.revokeAllTokens(userID: "user-1", now: now, keepingFamily: nil, keepingSession: current.id)
            #expect(try await store.deviceSession(id: current.id)?.revokedAt == nil)
            #expect(try await store.deviceSession(id: other.id)?.revokedAt != nil)
            #expect(try await store.deviceSession(id: someoneElse.id)?.revokedAt == nil)

            try await store.purgeExpired(now: now.addingTimeInterval(11))
            #expect(try await store.deviceSession(id: expired.id) == nil)
            #expect(try await store.deviceSession(id: someoneElse.id) != nil)
        }
    }

    @Test("a client assertion's jti is accepted once per client, also through another connection and under concurrency; purged when expired", arguments: StoreBackend.available)
    func assertionReplay(backend: StoreBackend) async throws {
        try await withSandboxStore(backend) { store, sandbox in
            let expiry = Date(timeIntervalSince1970: 1_800_000_120)
            #expect(try await store.recordClientAssertion(clientID: "backend", jti: "j1", expiresAt: expiry))
            #expect(try await store.recordClientAssertion(clientID: "other", jti: "j1", expiresAt: expiry), "per client")
            let connection = try await sandbox.open()
            #expect(try await connection.recordClientAssertion(clientID: "backend", jti: "j1", expiresAt: expiry) == false)
            let wins = try await withThrowingTaskGroup(of: Bool.self) { group in
                for _ in 0..<10 {
                    group.addTask { try await store.recordClientAssertion(clientID: "backend", jti: "j2", expiresAt: expiry) }
                }
                return try await group.reduce(into: 0) { $0 += $1 ? 1 : 0 }
            }
            #expect(wins == 1)
            try await store.purgeExpired(now: expiry.addingTimeInterval(1))
            #expect(try await store.recordClientAssertion(clientID: "backend", jti: "j1", expiresAt: expiry.addingTimeInterval(600)))
            try await connection.close()
        }
    }
}

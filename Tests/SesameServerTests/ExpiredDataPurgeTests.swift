import SesameTesting
import TestSupport
import Foundation
import Logging
import SesameProtocol
import Testing
import StoreTesting
@testable import SesameServer

/// The periodic purge of expired codes, tokens and sessions (`ExpiredDataPurge`), on real
/// SQLite files and in a running server.
@Suite("Expired data purge")
struct ExpiredDataPurgeTests {
    static func purge(_ store: SQLIdentityStore, interval: Duration = .seconds(600), now: Date) -> ExpiredDataPurge {
        ExpiredDataPurge(
            identityStore: store, accountStore: store, mfaStore: store, interval: interval,
            now: { now }, logger: StoreSamples.logger)
    }

    @Test("expired refresh tokens and codes are deleted; live ones stay and still work")
    func deletesOnlyExpired() async throws {
        try await withSandboxStore { store, _ in
            let now = StoreSamples.now()
            let expired = StoreSamples.refreshToken(expiresAt: now.addingTimeInterval(-1))
            let live = StoreSamples.refreshToken(expiresAt: now.addingTimeInterval(3600))
            let expiredCode = StoreSamples.code(expiresAt: now.addingTimeInterval(-1))
            let liveCode = StoreSamples.code(expiresAt: now.addingTimeInterval(60))
            try await store.insertRefreshToken(expired)
            try await store.insertRefreshToken(live)
            try await store.insertAuthorizationCode(expiredCode)
            try await store.insertAuthorizationCode(liveCode)

            await Self.purge(store, now: now).purgeOnce()

            #expect(try await store.refreshToken(digest: expired.tokenDigest) == nil)
            #expect(try await store.refreshToken(digest: live.tokenDigest) == live)
            guard case .notFound = try await store.redeemAuthorizationCode(digest: expiredCode.codeDigest, now: now.addingTimeInterval(-2)) else {
                Issue.record("the expired code is still stored")
                return
            }
            guard case .redeemed = try await store.redeemAuthorizationCode(digest: liveCode.codeDigest, now: now) else {
                Issue.record("the live code was purged")
                return
            }
            guard case .redeemed = try await store.rotateRefreshToken(digest: live.tokenDigest, into: StoreSamples.successor(at: now)) else {
                Issue.record("the live refresh token was purged")
                return
            }
        }
    }

    @Test("audit records older than the retention period are purged; newer ones, and all of them without a retention, stay")
    func auditRetention() async throws {
        try await withSandboxStore { store, _ in
            let now = StoreSamples.now()
            try await store.appendAuditRecords([
                AuditRecord(time: now.addingTimeInterval(-91 * 86_400), event: "sign_in.failed"),
                AuditRecord(time: now.addingTimeInterval(-89 * 86_400), event: "sign_in.succeeded"),
            ])
            var keepAll = Self.purge(store, now: now)
            keepAll.auditStore = store
            await keepAll.purgeOnce()
            #expect(try await store.auditRecords(AuditQuery()).count == 2, "no retention: everything stays")

            var purge = Self.purge(store, now: now)
            purge.auditStore = store
            purge.auditRetention = 90 * 86_400
            await purge.purgeOnce()
            #expect(try await store.auditRecords(AuditQuery()).map(\.event) == ["sign_in.succeeded"])
        }
    }

    @Test("an expired successor of a still valid token stays, so that token remains rotated")
    func keepsExpiredSuccessorOfLiveToken() async throws {
        try await withSandboxStore { store, _ in
            let now = StoreSamples.now()
            let token = StoreSamples.refreshToken(expiresAt: now.addingTimeInterval(3600))
            try await store.insertRefreshToken(token)
            // A successor shorter-lived than its parent (the client's lifetime was lowered).
            let successor = StoreSamples.successor(at: now.addingTimeInterval(-120), lifetime: 60)
            guard case .redeemed = try await store.rotateRefreshToken(digest: token.tokenDigest, into: successor) else {
                Issue.record("the rotation did not win")
                return
            }
            await Self.purge(store, now: now).purgeOnce()
            #expect(try await store.refreshToken(digest: successor.tokenDigest) != nil)
            let replay = try await store.rotateRefreshToken(digest: token.tokenDigest, into: StoreSamples.successor(at: now))
            guard case .replayed = replay else {
                Issue.record("the rotated token became usable again after the purge")
                return
            }
            // Once the parent has expired too, both go.
            await Self.purge(store, now: now.addingTimeInterval(3601)).purgeOnce()
            #expect(try await store.refreshToken(digest: token.tokenDigest) == nil)
            #expect(try await store.refreshToken(digest: successor.tokenDigest) == nil)
        }
    }

    @Test("the service purges again every interval and stops when cancelled")
    func runsEveryInterval() async throws {
        try await withSandboxStore { store, _ in
            let now = StoreSamples.now()
            let purge = Self.purge(store, interval: .milliseconds(50), now: now)
            let running = Task { await purge.run() }
            // Inserted after the first pass: only a later pass can delete it.
            try await Task.sleep(for: .milliseconds(20))
            let expired = StoreSamples.refreshToken(expiresAt: now.addingTimeInterval(-1))
            try await store.insertRefreshToken(expired)
            var gone = false
            for _ in 0..<100 where !gone {
                try await Task.sleep(for: .milliseconds(20))
                gone = try await store.refreshToken(digest: expired.tokenDigest) == nil
            }
            running.cancel()
            await running.value
            #expect(gone)
        }
    }

    @Test("a running server purges with its configured interval; nil turns it off")
    func serverRunsThePurge() async throws {
        for interval in [Duration.milliseconds(50), nil] {
            let directory = FileManager.default.temporaryDirectory
                .appendingPathComponent("sesame-purge-tests-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: directory) }
            var configuration = ServerConfiguration(
                dataDirectory: DataDirectory(url: directory), port: 0, passwordHasher: TestServer.hasher)
            configuration.purgeInterval = interval
            let running = try await IdentityServer.start(configuration, logger: StoreSamples.logger)
            let expired = StoreSamples.refreshToken(expiresAt: Date().addingTimeInterval(-1))
            try await running.store.insertRefreshToken(expired)
            if interval != nil {
                let purged = try await eventually {
                    try await running.store.refreshToken(digest: expired.tokenDigest) == nil
                }
                #expect(purged, "the server never purged the expired token")
            } else {
                try await Task.sleep(for: .milliseconds(300))
                #expect(try await running.store.refreshToken(digest: expired.tokenDigest) != nil)
            }
            try await running.shutdown()
        }
    }
}

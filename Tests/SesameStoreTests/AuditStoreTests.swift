import Foundation
import StoreTesting
import Testing
@testable import SesameStore

/// The audit log (``AuditStore``) and single-use challenges (``ChallengeRedemptionStore``) in
/// each store: records read back whole, in the order written, filtered by user, time and event
/// (exact or by area); the newest `limit`; the retention purge; one redemption per challenge
/// across connections.
@Suite("Store: audit log and challenge redemptions")
struct AuditStoreTests {
    @Test("records round-trip and filter by user, time and event; limit keeps the newest; purge deletes the old", arguments: StoreBackend.available)
    func auditLog(backend: StoreBackend) async throws {
        try await withSandboxStore(backend) { store, _ in
            let start = Date(timeIntervalSince1970: 1_800_000_000)
            let records = [
                AuditRecord(time: start, event: "sign_in.failed", reason: "invalid_credentials", clientAddress: "198.51.100.7", clientID: "app", requestID: "r1"),
                AuditRecord(time: start, event: "sign_in.succeeded", clientAddress: "198.51.100.7", clientID: "app", userID: "u1", requestID: "r2", detail: ["factor": "pwd"]),
                AuditRecord(time: start.addingTimeInterval(60), event: "challenge.issued", clientAddress: "198.51.100.7", detail: ["difficulty": "14"]),
                AuditRecord(time: start.addingTimeInterval(120), event: "admin.user_removed", userID: "u1"),
            ]
            try await store.appendAuditRecords(records)
            #expect(try await store.auditRecords(AuditQuery()) == records)
            #expect(try await store.auditRecords(AuditQuery(userID: "u1")).map(\.event) == ["sign_in.succeeded", "admin.user_removed"])
            #expect(try await store.auditRecords(AuditQuery(since: start.addingTimeInterval(60))).count == 2)
            #expect(try await store.auditRecords(AuditQuery(events: ["sign_in."])).map(\.event) == ["sign_in.failed", "sign_in.succeeded"])
            #expect(try await store.auditRecords(AuditQuery(events: ["challenge.issued", "admin.user_removed"])).count == 2)
            #expect(try await store.auditRecords(AuditQuery(events: ["sign_in"])).isEmpty, "a name without '.' is exact")
            #expect(try await store.auditRecords(AuditQuery(limit: 2)).map(\.event) == ["challenge.issued", "admin.user_removed"])

            #expect(try await store.purgeAuditRecords(before: start.addingTimeInterval(60)) == 2)
            #expect(try await store.auditRecords(AuditQuery()).map(\.event) == ["challenge.issued", "admin.user_removed"])
            // A large batch goes in several statements.
            try await store.appendAuditRecords((0..<1200).map { AuditRecord(time: start.addingTimeInterval(Double(200 + $0)), event: "rate_limit.exceeded") })
            #expect(try await store.auditRecords(AuditQuery(events: ["rate_limit."], limit: 5000)).count == 1200)
        }
    }

    @Test("a challenge is redeemed once, also through another connection; expired redemptions are purged", arguments: StoreBackend.available)
    func redemptions(backend: StoreBackend) async throws {
        try await withSandboxStore(backend) { store, sandbox in
            let expiry = Date(timeIntervalSince1970: 1_800_000_120)
            #expect(try await store.redeemChallenge(id: "c1", expiresAt: expiry))
            let other = try await sandbox.open()
            #expect(try await other.redeemChallenge(id: "c1", expiresAt: expiry) == false)
            let concurrent = try await withThrowingTaskGroup(of: Bool.self) { group in
                for _ in 0..<10 { group.addTask { try await store.redeemChallenge(id: "c2", expiresAt: expiry) } }
                return try await group.reduce(into: [Bool]()) { $0.append($1) }
            }
            #expect(concurrent.filter { $0 }.count == 1, "exactly one concurrent redemption wins")
            try await store.purgeExpired(now: expiry.addingTimeInterval(1))
            #expect(try await store.redeemChallenge(id: "c1", expiresAt: expiry.addingTimeInterval(600)), "forgotten once expired")
            try await other.close()
        }
    }
}

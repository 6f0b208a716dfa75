import Foundation
import StoreTesting
import Testing
@testable import SesameStore

/// The account slice of the store on both databases: verification codes, the outbox, devices.
@Suite("Store: verification codes, outbox and devices (SQLite and PostgreSQL)")
struct AccountStoreTests {
    /// Runs `body`, recording the database's own message when it throws (a driver's
    /// `description` can be generic).
    func reporting(_ step: String, _ body: () async throws -> Void) async {
        do { try await body() } catch { Issue.record("\(step): \(String(reflecting: error))") }
    }

    @Test("a code is saved, replaced, attempted and consumed once; messages queue with ids; devices register", arguments: StoreBackend.available)
    func accountSlice(backend: StoreBackend) async throws {
        try await withSandboxStore(backend) { store, _ in
            let user = StoreSamples.user("carol")
            try await store.createUser(user)
            let now = StoreSamples.now()
            await reporting("save code") {
                try await store.saveVerificationCode(VerificationCodeRecord(
                    userID: user.id, purpose: "password_reset", codeDigest: "d1", target: user.email,
                    createdAt: now, expiresAt: now.addingTimeInterval(600)))
                try await store.saveVerificationCode(VerificationCodeRecord(
                    userID: user.id, purpose: "password_reset", codeDigest: "d2", target: user.email,
                    createdAt: now, expiresAt: now.addingTimeInterval(600)))
                #expect(try await store.verificationCode(userID: user.id, purpose: "password_reset")?.codeDigest == "d2")
            }
            await reporting("attempt and consume") {
                let reserved = try await store.reserveVerificationAttempt(
                    userID: user.id, purpose: "password_reset", maxAttempts: 5, now: now)
                #expect(reserved?.attempts == 1)
                #expect(try await store.consumeVerificationCode(userID: user.id, purpose: "password_reset", codeDigest: "d2"))
                #expect(try await store.consumeVerificationCode(userID: user.id, purpose: "password_reset", codeDigest: "d2") == false)
            }
            await reporting("outbox") {
                let first = try await store.enqueueMessage(
                    OutboundMessage(channel: .email, to: "Carol@Example.com", subject: "s", body: "b", purpose: "p", createdAt: now))
                let second = try await store.enqueueMessage(
                    OutboundMessage(channel: .sms, to: "+4712345678", body: "b", purpose: "p", createdAt: now))
                #expect(second > first)
                #expect(try await store.outboxEntries(to: "carol@example.com", purpose: "p").map(\.id) == [first])
                try await store.markMessageDelivered(id: first, at: now)
                #expect(try await store.outboxEntries(to: nil, purpose: nil).first?.deliveredAt == now)
            }
        }
    }
}

import Crypto
import Logging
import SesameTesting
import Foundation
import SesameProtocol
import Testing
@testable import SesameServer

@Suite("Message outbox")
struct OutboxTests {
    @Test("issue #28 §7: a live code is never in clear at rest; the server's outbox reads it back, another master key cannot")
    func sealedAtRest() async throws {
        try await withTestServer { server in
            let api = AccountAPI(server)
            #expect(try await api.post("/api/password/reset", ["email": Fixtures.email]).status == 202)
            let code = try await api.latestCode(to: Fixtures.email, purpose: "password_reset")
            let store = server.store
            let raw = try #require(try await store.outboxEntries(to: Fixtures.email, purpose: "password_reset").first)
            #expect(!raw.message.body.contains(code))
            #expect(raw.message.body.hasPrefix("sealed:v1:"))
            #expect(raw.message.subject?.hasPrefix("sealed:v1:") == true)
            // The sqlite file itself holds no code either.
            let file = try Data(contentsOf: server.sandbox.databaseURL)
            let wal = (try? Data(contentsOf: URL(fileURLWithPath: server.sandbox.databaseURL.path + "-wal"))) ?? Data()
            #expect(file.range(of: Data(code.utf8)) == nil && wal.range(of: Data(code.utf8)) == nil)

            // Another deployment's master key opens nothing.
            let foreign = KeyRing(store: server.store, masterKey: SymmetricKey(size: .bits256), logger: Logger(label: "t"))
            let other = try #require(try await OutboxMessageSender(store: store, keyRing: foreign).entries(to: Fixtures.email).first)
            #expect(!other.message.body.contains(code))
        }
    }

    @Test("the outbox is the default sender and survives a restart")
    func persistsAcrossRestart() async throws {
        let server = try await TestServer.start()
        var current = server
        do {
            let outbox = try #require(server.running.messageSender as? OutboxMessageSender)
            try await outbox.send(
                OutboundMessage(channel: .email, to: "Dana@Example.com", subject: "Hello", body: "Code 123456", purpose: "password_reset"))
            try await outbox.send(OutboundMessage(channel: .sms, to: "+4712345678", body: "Code 654321", purpose: "mfa_code"))

            current = try await server.restart()
            let reopened = try #require(current.running.messageSender as? OutboxMessageSender)
            let all = try await reopened.entries()
            #expect(all.map(\.message.purpose) == ["password_reset", "mfa_code"])
            #expect(all[0].id < all[1].id)
            #expect(all[0].message.to == "dana@example.com")
            #expect(all[0].message.subject == "Hello")
            #expect(all[0].message.body == "Code 123456")
            #expect(all[1].message.channel == .sms)
            #expect(all[1].message.subject == nil)
            #expect(all.allSatisfy { $0.deliveredAt == nil })

            #expect(try await reopened.messages(to: "DANA@example.com").count == 1)
            #expect(try await reopened.messages(to: nil, purpose: "mfa_code").map(\.to) == ["+4712345678"])
            #expect(try await reopened.messages(to: "dana@example.com", purpose: "mfa_code").isEmpty)

            let delivered = Date(timeIntervalSince1970: 1_800_000_000)
            try await reopened.markDelivered(id: all[0].id, at: delivered)
            let after = try #require(try await reopened.entries(to: "dana@example.com").first)
            #expect(after.deliveredAt == delivered)
            #expect(after.message.body.isEmpty)
            try await current.stop()
        } catch {
            try? await current.stop()
            throw error
        }
    }
}

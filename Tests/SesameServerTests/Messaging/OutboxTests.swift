import SesameTesting
import Foundation
import SesameProtocol
import Testing
@testable import SesameServer

@Suite("Message outbox")
struct OutboxTests {
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

import SesameTesting
import Foundation
import Logging
import SesameProtocol
import Testing
@testable import SesameServer

/// ``SMTPMessageSender`` against a real SMTP server (`smtp_sink.py`) over TCP on 127.0.0.1.
@Suite("SMTP delivery")
struct SMTPDeliveryTests {
    static let from = "no-reply@sesame.test"

    /// Quiet unless SESAME_TEST_LOG is set.
    static var logger: Logger {
        var logger = Logger(label: "smtp.test")
        logger.logLevel = ProcessInfo.processInfo.environment["SESAME_TEST_LOG"] == nil ? .critical : .debug
        return logger
    }

    private func sender(
        _ server: TestServer, sink: SMTPSink, username: String? = "relay-user", password: String? = "relay-pass",
        method: SMTPConfiguration.AuthMethod? = nil
    ) throws -> (SMTPMessageSender, OutboxMessageSender) {
        let store = server.store
        let outbox = OutboxMessageSender(store: store)
        let configuration = SMTPConfiguration(
            host: "127.0.0.1", port: sink.port, from: Self.from, username: username, password: password,
            authMethod: method, timeout: 20)
        try configuration.validate()
        return (SMTPMessageSender(configuration: configuration, outbox: outbox, logger: Self.logger), outbox)
    }

    @Test("AUTH PLAIN, RFC 5322 headers, an encoded subject, dot-stuffing; the outbox entry is marked delivered")
    func deliversWithHeadersAndDotStuffing() async throws {
        try await withTestServer { server in
            try await withSMTPSink(auth: "PLAIN LOGIN", user: "relay-user", password: "relay-pass") { sink in
                let (smtp, outbox) = try sender(server, sink: sink)
                let body = "Your code is 123456.\n.a line starting with a dot\n..two dots\n.\nend"
                try await smtp.send(
                    OutboundMessage(
                        channel: .email, to: "bob@example.com", subject: "Grüße: your code", body: body,
                        purpose: "email_verification"))

                let received = try #require(try sink.messages().first)
                #expect(try sink.messages().count == 1)
                #expect(received.auth?.mechanism == "PLAIN")
                #expect(received.auth?.username == "relay-user")
                #expect(received.ehlo == "sesame.test")
                #expect(received.mailFrom == "MAIL FROM:<\(Self.from)>")
                #expect(received.rcptTo == ["RCPT TO:<bob@example.com>"])

                let headers = received.headers
                #expect(headers["from"] == "<\(Self.from)>")
                #expect(headers["to"] == "<bob@example.com>")
                #expect(headers["mime-version"] == "1.0")
                #expect(headers["content-type"] == "text/plain; charset=utf-8")
                #expect(headers["content-transfer-encoding"] == "7bit")
                let messageID = try #require(headers["message-id"])
                #expect(messageID.hasPrefix("<") && messageID.hasSuffix("@sesame.test>"))
                let date = try #require(headers["date"])
                #expect(date.wholeMatch(of: /[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} \+0000/) != nil, "\(date)")
                let subject = try #require(headers["subject"])
                #expect(subject.hasPrefix("=?UTF-8?B?"))
                let encoded = subject.replacingOccurrences(of: "=?UTF-8?B?", with: "").replacingOccurrences(of: "?=", with: "")
                #expect(String(decoding: Data(base64Encoded: encoded) ?? Data(), as: UTF8.self) == "Grüße: your code")

                #expect(received.raw.contains("..a line starting with a dot"))
                #expect(received.raw.contains("...two dots"))
                #expect(received.raw.contains(".."), "a lone dot line is stuffed, not the terminator")
                #expect(received.body == body.replacingOccurrences(of: "\n", with: "\r\n"))

                let entry = try #require(try await outbox.entries().first)
                #expect(entry.deliveredAt != nil)
                #expect(entry.message.body.isEmpty, "the code is erased once delivered")
                #expect(entry.message.subject == "Grüße: your code")
            }
        }
    }

    @Test("AUTH LOGIN; a non-ASCII body travels as 8bit with BODY=8BITMIME, or base64 without it")
    func loginAndEncodings() async throws {
        try await withTestServer { server in
            let body = "Koden din er 654321. Hilsen Sesame – ø"
            try await withSMTPSink(auth: "LOGIN", user: "relay-user", password: "relay-pass") { sink in
                let (smtp, _) = try sender(server, sink: sink)
                try await smtp.send(OutboundMessage(channel: .email, to: "kari@example.no", subject: "Kode", body: body, purpose: "mfa_code"))
                let received = try #require(try sink.messages().first)
                #expect(received.auth?.mechanism == "LOGIN")
                #expect(received.mailFrom == "MAIL FROM:<\(Self.from)> BODY=8BITMIME")
                #expect(received.headers["content-transfer-encoding"] == "8bit")
                #expect(received.body == body)
            }
            try await withSMTPSink(eightBitMIME: false) { sink in
                let (smtp, _) = try sender(server, sink: sink, username: nil, password: nil)
                try await smtp.send(OutboundMessage(channel: .email, to: "kari@example.no", subject: "Kode", body: body, purpose: "mfa_code"))
                let received = try #require(try sink.messages().first)
                #expect(received.auth == nil)
                #expect(received.headers["content-transfer-encoding"] == "base64")
                let decoded = Data(base64Encoded: received.body.replacingOccurrences(of: "\r\n", with: ""))
                #expect(decoded.map { String(decoding: $0, as: UTF8.self) } == body)
            }
        }
    }

    @Test("SMS stays in the outbox with its body; nothing reaches the relay")
    func smsStaysInOutbox() async throws {
        try await withTestServer { server in
            try await withSMTPSink(auth: "PLAIN", user: "relay-user", password: "relay-pass") { sink in
                let (smtp, outbox) = try sender(server, sink: sink)
                try await smtp.send(OutboundMessage(channel: .sms, to: "+4712345678", body: "Code 111222", purpose: "mfa_code"))
                #expect(try sink.messages().isEmpty)
                let entry = try #require(try await outbox.entries(to: "+4712345678").first)
                #expect(entry.deliveredAt == nil)
                #expect(entry.message.body == "Code 111222")
            }
        }
    }

    @Test("a refused login fails the send and keeps the message queued")
    func refusedDelivery() async throws {
        try await withTestServer { server in
            try await withSMTPSink(auth: "PLAIN", user: "relay-user", password: "relay-pass") { sink in
                let (smtp, outbox) = try sender(server, sink: sink, password: "wrong")
                await #expect(throws: MessageDeliveryError.self) {
                    try await smtp.send(OutboundMessage(channel: .email, to: "bob@example.com", subject: "s", body: "b", purpose: "p"))
                }
                #expect(try sink.messages().isEmpty)
                let entry = try #require(try await outbox.entries().first)
                #expect(entry.deliveredAt == nil)
                #expect(entry.message.body == "b")
            }
        }
    }

    @Test("a server configured with SMTP emails the sign-up code, which confirms the account")
    func serverUsesSMTP() async throws {
        try await withSMTPSink(auth: "PLAIN", user: "relay-user", password: "relay-pass") { sink in
            let smtp = SMTPConfiguration(
                host: "127.0.0.1", port: sink.port, from: Self.from, username: "relay-user", password: "relay-pass")
            try await withTestServer(configure: { $0.smtp = smtp }) { server in
                #expect(server.running.messageSender is SMTPMessageSender)
                let api = AccountAPI(server)
                let signUp = try await api.signUp(email: "mailed@example.com")
                #expect(signUp.status == 201, "\(signUp.text)")
                let received = try #require(try sink.messages().first)
                #expect(received.rcptTo == ["RCPT TO:<mailed@example.com>"])
                #expect(received.headers["subject"] == "Confirm your email address")
                let code = try #require(AccountAPI.code(in: received.body))
                let confirmed = try await api.post("/api/signup/confirm", ["email": "mailed@example.com", "code": code])
                #expect(confirmed.status == 200, "\(confirmed.text)")

                let store = server.store
                let entry = try #require(try await store.outboxEntries(to: "mailed@example.com", purpose: nil).first)
                #expect(entry.deliveredAt != nil)
                #expect(entry.message.body.isEmpty)
            }
        }
    }

    @Test("with the relay down, sign-up answers 503 and creates nothing; password reset still answers 202")
    func relayDown() async throws {
        let sink = try await SMTPSink()
        let port = sink.port
        sink.stop()
        let smtp = SMTPConfiguration(host: "127.0.0.1", port: port, from: Self.from, timeout: 5)
        try await withTestServer(configure: { $0.smtp = smtp }) { server in
            let api = AccountAPI(server)
            let signUp = try await api.signUp(email: "unlucky@example.com")
            #expect(signUp.status == 503)
            #expect(signUp.apiError?.code == .temporarilyUnavailable)
            #expect(try await server.store.user(login: "unlucky@example.com") == nil, "the sign-up was undone")

            let reset = try await api.post("/api/password/reset", ["email": Fixtures.email])
            #expect(reset.status == 202)
            let store = server.store
            let queued = try await store.outboxEntries(to: Fixtures.email, purpose: "password_reset")
            #expect(queued.count == 1 && queued.first?.deliveredAt == nil, "the message waits in the outbox")
        }
    }

    @Test("credentials are only sent to a loopback relay; incomplete settings are refused")
    func configurationChecks() async throws {
        let remote = SMTPConfiguration(host: "smtp.example.com", from: Self.from, username: "u", password: "p")
        #expect(throws: SMTPConfigurationError.self) { try remote.validate() }
        #expect(throws: SMTPConfigurationError.self) {
            try SMTPConfiguration(from: Self.from, username: "u").validate()
        }
        #expect(throws: SMTPConfigurationError.self) { try SMTPConfiguration(from: "not an address").validate() }
        #expect(throws: Never.self) { try SMTPConfiguration(host: "smtp.example.com", from: Self.from).validate() }
        #expect(SMTPConfiguration(host: "[::1]", from: Self.from).isLoopback)

        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sesame-smtp-config-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        var configuration = ServerConfiguration(
            dataDirectory: DataDirectory(url: directory), port: 0, passwordHasher: TestServer.hasher)
        configuration.smtp = remote
        await #expect(throws: ServerStartError.self) {
            _ = try await IdentityServer.start(configuration, logger: Self.logger)
        }
    }
}

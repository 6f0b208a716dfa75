import Foundation
import NIOCore
import NIOPosix

/// One SMTP session (RFC 5321 §3, §4.1) that submits one message: greeting, `EHLO`, optional
/// `AUTH` (RFC 4954; PLAIN per RFC 4616 or LOGIN), `MAIL FROM`, `RCPT TO`, `DATA` with the
/// dot-stuffed message (§4.5.2), `QUIT`. Over SwiftNIO, with a connect timeout and a read
/// timeout per reply; nothing is logged here (the message holds a one-time code).
struct SMTPClient: Sendable {
    let configuration: SMTPConfiguration

    /// Delivers `message`; throws ``SMTPError`` when the relay refuses or does not answer.
    func deliver(_ message: MailMessage) async throws {
        let timeout = TimeAmount.milliseconds(Int64(configuration.timeout * 1000))
        let channel: NIOAsyncChannel<SMTPReply, ByteBuffer>
        do {
            channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .connectTimeout(timeout)
                .connect(host: configuration.host, port: configuration.port) { channel in
                    channel.eventLoop.makeCompletedFuture {
                        let pipeline = channel.pipeline.syncOperations
                        try pipeline.addHandler(IdleStateHandler(readTimeout: timeout))
                        try pipeline.addHandler(ByteToMessageHandler(SMTPReplyDecoder()))
                        try pipeline.addHandler(SMTPReadTimeoutHandler())
                        return try NIOAsyncChannel<SMTPReply, ByteBuffer>(wrappingChannelSynchronously: channel)
                    }
                }
        } catch {
            throw SMTPError.connectionFailed("\(configuration.host):\(configuration.port): \(error)")
        }
        try await channel.executeThenClose { inbound, outbound in
            var session = Session(inbound: inbound.makeAsyncIterator(), outbound: outbound)
            try await session.run(message, configuration: configuration)
        }
    }

    /// The command/reply exchange.
    private struct Session {
        var inbound: NIOAsyncChannelInboundStream<SMTPReply>.AsyncIterator
        let outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>

        mutating func run(_ message: MailMessage, configuration: SMTPConfiguration) async throws {
            try await expect([220], after: "the greeting")
            let hello = try await command("EHLO \(configuration.effectiveHeloName)", expect: [250])
            let extensions = Set(hello.lines.dropFirst().map { $0.uppercased() })
            if let username = configuration.username, let password = configuration.password {
                try await authenticate(
                    username: username, password: password, preferred: configuration.authMethod,
                    offered: extensions)
            }
            let eightBit = extensions.contains("8BITMIME")
            let encoding = message.transferEncoding(relaySupports8BitMIME: eightBit)
            let bodyParameter = encoding == .eightBit ? " BODY=8BITMIME" : ""
            try await command("MAIL FROM:<\(message.from)>\(bodyParameter)", expect: [250])
            try await command("RCPT TO:<\(message.to)>", expect: [250, 251])
            try await command("DATA", expect: [354])
            let data = MailMessage.dotStuffed(message.rendered(encoding: encoding)) + ".\r\n"
            try await outbound.write(ByteBuffer(string: data))
            try await expect([250], after: "the message")
            // The message is accepted; a relay that drops the connection at QUIT changes nothing.
            _ = try? await command("QUIT", expect: [221])
        }

        /// RFC 4954 §4: PLAIN when offered (or asked for), else LOGIN.
        private mutating func authenticate(
            username: String, password: String, preferred: SMTPConfiguration.AuthMethod?, offered: Set<String>
        ) async throws {
            let mechanisms = Set(
                offered.filter { $0.hasPrefix("AUTH ") || $0.hasPrefix("AUTH=") }
                    .flatMap { $0.dropFirst(5).split(separator: " ").map(String.init) })
            let method: SMTPConfiguration.AuthMethod
            if let preferred {
                method = preferred
            } else if mechanisms.contains("PLAIN") {
                method = .plain
            } else if mechanisms.contains("LOGIN") {
                method = .login
            } else {
                throw SMTPError.authenticationUnavailable
            }
            func base64(_ text: String) -> String { Data(text.utf8).base64EncodedString() }
            switch method {
            case .plain:
                try await command("AUTH PLAIN " + base64("\0\(username)\0\(password)"), expect: [235], redacted: true)
            case .login:
                try await command("AUTH LOGIN", expect: [334])
                try await command(base64(username), expect: [334], redacted: true)
                try await command(base64(password), expect: [235], redacted: true)
            }
        }

        @discardableResult
        private mutating func command(_ line: String, expect codes: Set<Int>, redacted: Bool = false) async throws
            -> SMTPReply
        {
            try await outbound.write(ByteBuffer(string: line + "\r\n"))
            let verb = redacted ? "AUTH" : String(line.prefix { $0 != " " && $0 != ":" })
            return try await expect(codes, after: verb)
        }

        @discardableResult
        private mutating func expect(_ codes: Set<Int>, after step: String) async throws -> SMTPReply {
            guard let reply = try await inbound.next() else { throw SMTPError.connectionClosed(step: step) }
            guard codes.contains(reply.code) else {
                throw SMTPError.rejected(step: step, code: reply.code, text: reply.lines.joined(separator: " "))
            }
            return reply
        }
    }
}

/// Why an SMTP delivery failed. Messages name the relay's answer, never credentials or bodies.
enum SMTPError: Error, Sendable, CustomStringConvertible {
    case connectionFailed(String)
    case connectionClosed(step: String)
    case rejected(step: String, code: Int, text: String)
    case authenticationUnavailable
    case timeout
    case malformedReply

    var description: String {
        switch self {
        case .connectionFailed(let reason): "cannot connect to the SMTP relay (\(reason))"
        case .connectionClosed(let step): "the SMTP relay closed the connection after \(step)"
        case .rejected(let step, let code, let text): "the SMTP relay answered \(code) to \(step): \(text)"
        case .authenticationUnavailable: "the SMTP relay offers neither AUTH PLAIN nor AUTH LOGIN"
        case .timeout: "the SMTP relay did not answer in time"
        case .malformedReply: "the SMTP relay sent a malformed reply"
        }
    }
}

/// An SMTP reply (RFC 5321 §4.2): the code and the text of each line.
struct SMTPReply: Sendable {
    var code: Int
    var lines: [String]
}

/// Frames replies: lines `ddd-text` continue, `ddd text` (or `ddd`) ends one (§4.2.1).
struct SMTPReplyDecoder: ByteToMessageDecoder {
    typealias InboundOut = SMTPReply
    private var lines: [String] = []
    static let maximumLineLength = 4096

    mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        guard let newline = buffer.readableBytesView.firstIndex(of: UInt8(ascii: "\n")) else {
            if buffer.readableBytes > Self.maximumLineLength { throw SMTPError.malformedReply }
            return .needMoreData
        }
        let raw = buffer.readString(length: newline - buffer.readerIndex + 1) ?? ""
        let line = raw.trimmingCharacters(in: CharacterSet(charactersIn: "\r\n"))
        guard line.utf8.count >= 3, let code = Int(line.prefix(3)), lines.count < 100 else {
            throw SMTPError.malformedReply
        }
        lines.append(String(line.dropFirst(4)))
        if line.dropFirst(3).first == "-" { return .continue }
        let reply = SMTPReply(code: code, lines: lines)
        lines = []
        context.fireChannelRead(wrapInboundOut(reply))
        return .continue
    }

    mutating func decodeLast(
        context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool
    ) throws -> DecodingState {
        try decode(context: context, buffer: &buffer)
    }
}

/// Turns the ``IdleStateHandler`` read timeout into an error on the inbound stream.
final class SMTPReadTimeoutHandler: ChannelInboundHandler, Sendable {
    typealias InboundIn = SMTPReply
    typealias InboundOut = SMTPReply

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let idle = event as? IdleStateHandler.IdleStateEvent, case .read = idle {
            context.fireErrorCaught(SMTPError.timeout)
            context.close(promise: nil)
        } else {
            context.fireUserInboundEventTriggered(event)
        }
    }
}

import Foundation
import Logging
import Testing

@testable import SesameCLI
import SesameServer

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The server's log lines (issue #50): UTC times by arithmetic (checked against Foundation's
/// calendar), swift-log's line format, and the sink's batching: an informational line waits for
/// the batch, a warning goes out at once after the lines before it, in order.
@Suite("Log lines: UTC time, format, batched writes")
struct LineLogHandlerTests {
    @Test("the UTC time of any second from 1900 to 2200 is Foundation's")
    func timestamps() {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.formatOptions = [.withInternetDateTime]
        var generator = SystemRandomNumberGenerator()
        let samples = [0, -1, 86_399, 86_400, 951_782_400, 4_107_542_399, -2_208_988_800]
            + (0..<20_000).map { _ in Int.random(in: -2_208_988_800...7_258_118_400, using: &generator) }
        for seconds in samples {
            let expected = formatter.string(from: Date(timeIntervalSince1970: TimeInterval(seconds)))
                .replacingOccurrences(of: "Z", with: "+0000")
            #expect(LogTimestamp.text(seconds) == expected, "\(seconds)")
        }
    }

    @Test("a line reads as swift-log's StreamLogHandler writes it: level, label, sorted metadata, source, message")
    func format() {
        let event = LogEvent(
            level: .info, message: "request", metadata: nil, source: "SesameServer", file: "f", function: "g", line: 1)
        let line = LineLogHandler.line(event, label: "sesame.server", metadata: ["status": "200", "path": "/jwks"], time: 0)
        #expect(line == "1970-01-01T00:00:00+0000 info sesame.server: path=/jwks status=200 [SesameServer] request\n")
    }

    @Test("a request's line written directly is the line swift-log's path makes of the same fields; a handler with its own metadata falls back")
    func requestLines() {
        let requests = [
            RequestLine(requestID: "r1", method: "GET", path: "/jwks", status: 200),
            RequestLine(
                requestID: "r2", method: "POST", path: "/token", status: 400, clientID: "app", outcome: "invalid_grant",
                errorID: "e-1"),
            RequestLine(requestID: "r3", method: "GET", path: "/", status: 500, errorID: "x"),
            RequestLine(requestID: "r4", method: "PUT", path: "/a b=c", status: 201, clientID: "", outcome: "ok"),
            // The static documents' ids, and statuses of every width the decimal writer handles.
            RequestLine(requestID: .serial(.next()), method: "GET", path: "/.well-known/openid-configuration", status: 0),
            RequestLine(requestID: .serial(.next()), method: "GET", path: "/jwks", status: 9),
            RequestLine(requestID: "r7", method: "GET", path: "/é", status: -42),
            RequestLine(requestID: "r8", method: "GET", path: "/", status: Int.max),
            RequestLine(requestID: "r9", method: "GET", path: "/", status: Int.min),
        ]
        let stamp = LogTimestamp.text(0)
        for request in requests {
            let event = LogEvent(
                level: .info, message: "request", metadata: nil, source: "SesameServer", file: "f", function: "g", line: 1)
            let general = LineLogHandler.line(event, label: "sesame.server", metadata: request.metadata, time: 0)
            let direct = LineLogHandler.requestLine(
                request, label: "sesame.server", message: "request", source: "SesameServer", stamp: stamp)
            #expect(direct == general)
            #expect(LineLogHandler.requestLine(request, label: "", message: "request", source: "S", stamp: stamp)
                == LineLogHandler.line(
                    LogEvent(level: .info, message: "request", metadata: nil, source: "S", file: "f", function: "g", line: 1),
                    label: "", metadata: request.metadata, time: 0))
        }
        var tagged = LineLogHandler(label: "sesame.server")
        tagged[metadataKey: "process"] = "2"
        #expect(!tagged.logRequest(requests[0], message: "request", source: "SesameServer"), "its own metadata: the general path")
        var quiet = LineLogHandler(label: "sesame.server")
        quiet.logLevel = .error
        #expect(quiet.logRequest(requests[0], message: "request", source: "SesameServer"), "below its level: nothing to write")
    }

    @Test("a static document's request id is 32 lowercase hex digits, distinct for each request, and is the line's request_id")
    func requestSerials() {
        let serials = (0..<1_000).map { _ in RequestSerial.next().description }
        #expect(Set(serials).count == serials.count)
        for serial in serials {
            #expect(serial.utf8.count == 32)
            #expect(serial.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }, "\(serial)")
        }
        #expect(Set(serials.map { $0.prefix(16) }).count == 1, "one prefix per process")
        let serial = RequestSerial.next()
        let line = LineLogHandler.requestLine(
            RequestLine(requestID: .serial(serial), method: "GET", path: "/jwks", status: 200), label: "", message: "request",
            source: "S", stamp: LogTimestamp.text(0))
        #expect(line.contains(" request_id=\(serial.description) status=200 "))
    }

    @Test("a stamped line starts with its second's time, formatted again when the second changes")
    func stampedLines() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("stamps-\(UUID().uuidString)").path
        let file = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0o600)
        #expect(file >= 0)
        defer { close(file); unlink(path) }
        let sink = LogLineSink(output: file, limit: 1 << 20)
        let seconds = [0, 0, 1, 86_399, 86_400, 1_764_444_000, 1_764_444_000, 0]
        for (index, second) in seconds.enumerated() {
            sink.append(urgent: false, stampedAt: second) { " line \(index)\n".appendUTF8(to: &$0) }
        }
        sink.flush()
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(lines == seconds.enumerated().map { "\(LogTimestamp.text($1)) line \($0)" })
    }

    @Test("a metadata value whose description logs is formatted before the sink's lock: both lines are written")
    func reentrantDescription() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("reentrant-\(UUID().uuidString)").path
        let file = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0o600)
        #expect(file >= 0)
        defer { close(file); unlink(path) }
        let handler = LineLogHandler(label: "sesame.server", sink: LogLineSink(output: file, limit: 1 << 20))
        // On a thread of its own, so that a deadlock fails the test instead of hanging the run.
        let logged = DispatchSemaphore(value: 0)
        Thread {
            handler.log(
                event: LogEvent(
                    level: .info, message: "outer", metadata: ["value": .stringConvertible(LoggingDescription(handler: handler))],
                    source: "S", file: "f", function: "g", line: 1))
            logged.signal()
        }.start()
        guard logged.wait(timeout: .now() + 20) == .success else {
            Issue.record("logging a value whose description logs did not return: the sink's lock waited for itself")
            return
        }
        handler.sink.flush()
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.first?.hasSuffix("info sesame.server: [S] inner") == true)
        #expect(lines.last?.hasSuffix("info sesame.server: value=described [S] outer") == true)
    }

    @Test("an informational line waits for its batch; a warning is written at once after what came before")
    func batching() async throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer { close(ends[0]); close(ends[1]) }
        let sink = LogLineSink(output: ends[1], limit: 1_024)
        // What the pipe holds now (poll with no wait: nothing written reads as "").
        func read() -> String {
            var text = ""
            var descriptor = pollfd(fd: ends[0], events: Int16(POLLIN), revents: 0)
            while poll(&descriptor, 1, 0) > 0 {
                var buffer = [UInt8](repeating: 0, count: 65_536)
                let count = Glibc.read(ends[0], &buffer, buffer.count)
                guard count > 0 else { break }
                text += String(decoding: buffer[0..<count], as: UTF8.self)
            }
            return text
        }
        sink.append("one\n", urgent: false)
        sink.append("two\n", urgent: false)
        #expect(read() == "", "buffered, not written per line")
        var text = ""
        for _ in 0..<100 where text.isEmpty {
            try await Task.sleep(for: .milliseconds(20))
            text = read()
        }
        #expect(text == "one\ntwo\n", "the batch is written within its delay")
        sink.append("three\n", urgent: false)
        sink.append("warning\n", urgent: true)
        #expect(read() == "three\nwarning\n", "a warning takes what was buffered with it, at once")
        sink.append(String(repeating: "x", count: 1_024) + "\n", urgent: false)
        #expect(read().count == 1_025, "past the limit the buffer is written at once")
    }

    @Test("buffers handed back after a write carry every line once, in order, from many writers")
    func recycledBuffers() async throws {
        // A file, not a pipe: 8 writers' lines must not block on a reader.
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("sink-\(UUID().uuidString)").path
        let file = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0o600)
        #expect(file >= 0)
        defer { close(file); unlink(path) }
        let sink = LogLineSink(output: file, limit: 512)
        await withTaskGroup(of: Void.self) { group in
            for writer in 0..<8 {
                group.addTask {
                    for index in 0..<2_000 { sink.append("w\(writer) \(index)\n", urgent: index % 500 == 499) }
                }
            }
        }
        sink.flush()
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 16_000, "no line lost or written twice")
        for writer in 0..<8 {
            let own = lines.filter { $0.hasPrefix("w\(writer) ") }.map { Int($0.split(separator: " ")[1])! }
            #expect(own == Array(0..<2_000), "writer \(writer)'s lines in its order")
        }
    }
}

/// A metadata value that logs a line of its own when it is described.
private struct LoggingDescription: CustomStringConvertible, Sendable {
    let handler: LineLogHandler

    var description: String {
        handler.log(
            event: LogEvent(level: .info, message: "inner", metadata: nil, source: "S", file: "f", function: "g", line: 1))
        return "described"
    }
}

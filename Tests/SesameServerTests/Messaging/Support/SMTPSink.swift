import ChildProcess
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The real SMTP server of `smtp_sink.py` (Python standard library only) on 127.0.0.1, in a
/// child process; each received message is a JSON file in a temp directory, written before the
/// server acknowledges the end of DATA.
final class SMTPSink: Sendable {
    let port: Int
    let directory: URL
    private let child: SpawnedChild
    private let ended: TerminationRecord

    /// One received message.
    struct Received: Decodable {
        struct Authentication: Decodable {
            var mechanism: String
            var username: String
        }

        var ehlo: String?
        var auth: Authentication?
        var mailFrom: String?
        var rcptTo: [String]
        /// DATA lines as sent (dot-stuffed).
        var raw: [String]
        /// The message after un-stuffing, CRLF line ends.
        var message: String

        enum CodingKeys: String, CodingKey {
            case ehlo, auth, raw, message
            case mailFrom = "mail_from"
            case rcptTo = "rcpt_to"
        }

        /// Header fields by lowercased name (unfolded).
        var headers: [String: String] {
            let head = message.components(separatedBy: "\r\n\r\n").first ?? ""
            var result: [String: String] = [:]
            var last: String?
            for line in head.components(separatedBy: "\r\n") {
                if line.hasPrefix(" "), let last {
                    result[last, default: ""] += line
                } else if let colon = line.firstIndex(of: ":") {
                    let name = line[..<colon].lowercased()
                    result[name] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                    last = name
                }
            }
            return result
        }

        /// Everything after the blank line.
        var body: String {
            message.components(separatedBy: "\r\n\r\n").dropFirst().joined(separator: "\r\n\r\n")
        }
    }

    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("smtp_sink.py")

    /// Starts the sink; `auth` lists the mechanisms it offers (e.g. `PLAIN LOGIN`).
    init(auth: String = "", user: String? = nil, password: String? = nil, eightBitMIME: Bool = true) async throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("sesame-smtp-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var arguments = [Self.script.path, directory.path]
        if !auth.isEmpty { arguments += ["--auth", auth] }
        if let user, let password { arguments += ["--user", user, "--password", password] }
        if !eightBitMIME { arguments.append("--no-8bitmime") }
        // No inherited pipes: a test runner's output must not wait for this child.
        let child = try SpawnedChild.spawn(
            "/usr/bin/env", arguments: ["python3"] + arguments,
            environment: ProcessInfo.processInfo.environment, input: .file("/dev/null"),
            output: .file("/dev/null"), error: .file("/dev/null"))
        self.child = child
        ended = child.watch().record
        // Readiness: the script writes the port file once it listens.
        let portFile = directory.appendingPathComponent("port")
        let deadline = ContinuousClock.now + .seconds(30)
        var port: Int?
        while port == nil, ContinuousClock.now < deadline, ended.termination == nil {
            port = (try? String(contentsOf: portFile, encoding: .utf8)).flatMap { Int($0) }
            if port == nil { try await Task.sleep(for: .milliseconds(20)) }
        }
        guard let port else {
            child.send(SIGKILL)
            throw SinkError(description: "smtp_sink.py did not start (is python3 installed?)")
        }
        self.port = port
    }

    /// Messages received so far, in order.
    func messages() throws -> [Received] {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { $0.hasPrefix("message-") && $0.hasSuffix(".json") }.sorted()
        return try names.map {
            try JSONDecoder().decode(Received.self, from: Data(contentsOf: directory.appendingPathComponent($0)))
        }
    }

    /// SIGKILL, which needs no cooperation from the child.
    func stop() {
        if ended.termination == nil { child.send(SIGKILL) }
        try? FileManager.default.removeItem(at: directory)
    }

    struct SinkError: Error, CustomStringConvertible {
        var description: String
    }
}

/// Runs `body` with a started sink and always stops it.
func withSMTPSink<T>(
    auth: String = "", user: String? = nil, password: String? = nil, eightBitMIME: Bool = true,
    _ body: (SMTPSink) async throws -> T
) async throws -> T {
    let sink = try await SMTPSink(auth: auth, user: user, password: password, eightBitMIME: eightBitMIME)
    defer { sink.stop() }
    return try await body(sink)
}

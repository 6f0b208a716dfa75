import ChildProcess
import Foundation
import SesameNIOTransport
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
#if canImport(Glibc)
    import Glibc
#endif

/// `NIOTransport` against a server that misbehaves (issue #48, attacking our own transport): a
/// body larger than the limit, a server that never answers, a port nobody listens on, a URL it
/// cannot send to. Each fails with a `URLError` within its bound; none hangs or crashes.
@Suite(
    "NIOTransport's limits",
    .enabled(if: ToolRun.available("python3") || ProcessInfo.processInfo.environment["CI"] == "true", "needs python3"))
struct NIOTransportLimitsTests {
    @Test("a body over the limit, a silent server, a closed port and an unsupported URL fail with URLError, promptly")
    func limits() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sesame-nio-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let portFile = directory.appendingPathComponent("port").path
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("misbehaving_server.py").path
        let server = try SpawnedChild.spawn(
            "/usr/bin/env", arguments: ["python3", script, portFile], environment: ProcessInfo.processInfo.environment,
            input: .file("/dev/null"), output: .file("/dev/null"), error: .file("/dev/null"))
        defer { server.send(SIGKILL) }
        // A minute for python3 to start: under the whole suite's parallel load it has taken over 5 s.
        var port: Int?
        _ = try await eventually(within: .seconds(60)) {
            port = (try? String(contentsOfFile: portFile, encoding: .utf8)).flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
            return port != nil
        }
        let base = "http://127.0.0.1:\(try #require(port))"

        var transport = NIOTransport()
        let (ok, response) = try await transport.send(URLRequest(url: URL(string: base + "/ok")!))
        #expect(response.statusCode == 200 && String(decoding: ok, as: UTF8.self) == #"{"ok":true}"#)

        transport.maximumResponseBytes = 1 << 20
        await Self.expectURLError(.dataLengthExceedsMaximum) { _ = try await transport.send(URLRequest(url: URL(string: base + "/big")!)) }

        var slow = URLRequest(url: URL(string: base + "/slow")!)
        slow.timeoutInterval = 1
        let started = Date()
        await Self.expectURLError(.timedOut) { _ = try await transport.send(slow) }
        #expect(Date().timeIntervalSince(started) < 10, "the request's timeout bounds the exchange")

        // A port nobody listens on: a URLError, not a hang and not one of SwiftNIO's error types.
        await Self.expectURLError(.cannotConnectToHost) { _ = try await transport.send(URLRequest(url: URL(string: "http://127.0.0.1:9/")!)) }
        await Self.expectURLError(.unsupportedURL) { _ = try await transport.send(URLRequest(url: URL(string: "ftp://127.0.0.1/")!)) }
    }

    static func expectURLError(_ code: URLError.Code, _ body: () async throws -> Void) async {
        do {
            try await body()
            Issue.record("expected URLError \(code)")
        } catch let error as URLError {
            #expect(error.code == code, "\(error)")
        } catch {
            Issue.record("expected URLError \(code), got \(error)")
        }
    }
}

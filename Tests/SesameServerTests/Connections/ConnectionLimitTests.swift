import SesameTesting
import Foundation
import Logging
import SesameProtocol
import Testing
@testable import SesameServer

/// Connection management against the real server over raw TCP (RFC 9112 §9, ``ConnectionGuard``,
/// ``ConnectionCap``), with short limits so each test takes a second or two.
@Suite("Connection timeouts, persistence, cap and malformed requests")
struct ConnectionLimitTests {
    static func short(_ configuration: inout ServerConfiguration) {
        configuration.connectionLimits.headerTimeout = 1
        configuration.connectionLimits.idleTimeout = 1
        configuration.connectionLimits.bodyTimeout = 1
    }

    var port: (TestServer) -> Int { { $0.baseURL.port ?? 0 } }

    @Test("a request head trickled byte by byte is cut off at the header timeout")
    func trickledHeaders() async throws {
        try await withTestServer(configure: Self.short) { server in
            let connection = try RawConnection(port: port(server))
            connection.write("GET /health HTTP/1.1\r\nHost: x\r\n")
            var closed = false
            var sent = 0
            // Up to 100 header lines, one every 0.3 s or more: 30 s at least, far past the 1 s
            // timeout even when a loaded run delays the server.
            for index in 0..<100 where !closed {
                connection.write("X-Trickle-\(index): 1\r\n")
                sent += 1
                closed = try await connection.read(timeout: 0.3) == .closed
            }
            #expect(closed, "the connection stayed open while headers trickled")
            #expect(sent < 100, "cut off only after every header line was sent")
        }
    }

    @Test("an idle keep-alive connection is closed after the idle timeout; a busy one is not")
    func idleKeepAlive() async throws {
        // A longer idle timeout than the others: on a loaded CI run the test's own task may
        // wait seconds between a response and its next request, and that pause must stay under
        // the limit; the close at the end then takes the full 20 s.
        try await withTestServer(configure: {
            Self.short(&$0)
            $0.connectionLimits.headerTimeout = 60
            $0.connectionLimits.idleTimeout = 20
        }) { server in
            let connection = try RawConnection(port: port(server))
            for _ in 0..<3 {
                connection.write("GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
                guard case .data(let data) = try await connection.read(timeout: 45) else {
                    Issue.record("no response on a keep-alive connection")
                    return
                }
                #expect(RawConnection.response(data)?.status == 200)
                try await Task.sleep(for: .milliseconds(300))  // well under the idle timeout
            }
            let (_, closed) = try await connection.readUntilClosed(timeout: 60)
            #expect(closed)
        }
    }

    @Test("a request body that stops arriving is cut off at the body timeout")
    func slowBody() async throws {
        try await withTestServer(configure: Self.short) { server in
            let connection = try RawConnection(port: port(server))
            connection.write(
                "POST /token HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\n\r\ngrant_type")
            let (_, closed) = try await connection.readUntilClosed(timeout: 45)
            #expect(closed)
        }
    }

    @Test("a graceful stop gives a request in progress the shutdown timeout, then cancels it and stops")
    func shutdownTimeout() async throws {
        try await withTestServer(configure: {
            $0.connectionLimits.bodyTimeout = 60  // the request would hold the stop a minute
            $0.connectionLimits.shutdownTimeout = 0.5
        }) { server in
            let connection = try RawConnection(port: port(server))
            connection.write(
                "POST /token HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\n\r\ngrant_type")
            #expect(try await connection.read(timeout: 0.3) == .silent, "the request is in progress, its body unfinished")
            let clock = ContinuousClock()
            let start = clock.now
            try await server.running.shutdown()
            let took = clock.now - start
            #expect(took >= .milliseconds(400), "the request in progress got its time")
            #expect(took < .seconds(20), "the unfinished request held the stop")
            let (_, closed) = try await connection.readUntilClosed(timeout: 10)
            #expect(closed)
        }
    }

    /// The CLI refuses these values; a library user setting ``ConnectionLimits`` directly gets
    /// the same refusal from `IdentityServer.start`, not a trap when the first timer is armed.
    @Test("a timeout of 0, below 0, past a day, infinite or NaN, or no connections at all: the server refuses to start")
    func outOfRangeLimits() async throws {
        let timeouts: [WritableKeyPath<ConnectionLimits, TimeInterval>] = [
            \.headerTimeout, \.idleTimeout, \.bodyTimeout, \.shutdownTimeout,
        ]
        for path in timeouts {
            for value in [0, -1, 86_400.5, 1e30, .infinity, .nan] {
                var limits = ConnectionLimits()
                limits[keyPath: path] = value
                #expect(throws: ServerStartError.self, "\(path) = \(value)") { try limits.validate() }
            }
            var longest = ConnectionLimits()
            longest[keyPath: path] = ConnectionLimits.longestTimeout
            #expect(throws: Never.self) { try longest.validate() }
        }
        var none = ConnectionLimits()
        none.maximumConnections = 0
        #expect(throws: ServerStartError.self) { try none.validate() }

        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sesame-limits-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        var configuration = ServerConfiguration(
            dataDirectory: DataDirectory(url: directory), port: 0, passwordHasher: TestServer.hasher)
        configuration.connectionLimits.headerTimeout = 1e30
        do {
            _ = try await IdentityServer.start(configuration, logger: Logger(label: "limits-test"))
            Issue.record("the server started with a header timeout of 1e30 s")
        } catch let error as ServerStartError {
            #expect(error.description.contains("headerTimeout") && error.description.contains("86400"), "\(error)")
        }
    }

    @Test("HTTP/1.0 without keep-alive is closed after the response; with keep-alive it stays open")
    func http10Persistence() async throws {
        try await withTestServer { server in
            let plain = try RawConnection(port: port(server))
            plain.write("GET /health HTTP/1.0\r\n\r\n")
            let (data, closed) = try await plain.readUntilClosed(timeout: 45)
            #expect(RawConnection.response(data)?.status == 200)
            #expect(closed, "an HTTP/1.0 connection without keep-alive stayed open")

            let kept = try RawConnection(port: port(server))
            kept.write("GET /health HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
            guard case .data(let first) = try await kept.read(timeout: 45) else {
                Issue.record("no response")
                return
            }
            #expect(RawConnection.response(first)?.status == 200)
            #expect(try await kept.read(timeout: 0.5) == .silent, "keep-alive was honoured")
        }
    }

    @Test(
        "oversized or malformed requests get the JSON error and a closed connection",
        arguments: [
            ("a 100 KB state", "GET /authorize?state=\(String(repeating: "s", count: 100 * 1024)) HTTP/1.1\r\nHost: x\r\n\r\n", 431),
            ("a 100 KB Authorization header", "GET /userinfo HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(String(repeating: "a", count: 100 * 1024))\r\n\r\n", 431),
            ("1,100 headers", "GET /health HTTP/1.1\r\nHost: x\r\n" + (0..<1100).map { "X-H\($0): v\r\n" }.joined() + "\r\n", 431),
            ("a malformed request line", "GET /health HTTP/9.Z\r\n\r\n", 400),
        ])
    func malformed(name: String, request: String, status: Int) async throws {
        try await withTestServer { server in
            let connection = try RawConnection(port: port(server))
            connection.write(request)
            let (data, closed) = try await connection.readUntilClosed(timeout: 45)
            let response = try #require(RawConnection.response(data), "\(name): no response (\(data.count) bytes)")
            #expect(response.status == status, "\(name)")
            #expect(response.headers.lowercased().contains("content-type: application/json"), "\(name)")
            let error = try JSONDecoder().decode(APIError.self, from: response.body)
            #expect(error.errorCode == (status == 431 ? 1025 : 1000), "\(name)")
            #expect(closed, "\(name): the connection stayed open")
        }
    }

    @Test("past the connection cap a new connection is closed at once; a freed place serves the next")
    func connectionCap() async throws {
        // Timeouts far longer than a loaded run's delays: this test is about the cap only.
        try await withTestServer(configure: {
            $0.connectionLimits.maximumConnections = 2
            $0.connectionLimits.headerTimeout = 120
            $0.connectionLimits.idleTimeout = 120
        }) { server in
            let held = try [RawConnection(port: port(server)), RawConnection(port: port(server))]
            for connection in held {
                connection.write("GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
                guard case .data = try await connection.read(timeout: 45) else {
                    Issue.record("a connection under the cap was not served")
                    return
                }
            }
            let refused = try RawConnection(port: port(server))
            refused.write("GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
            let (nothing, closed) = try await refused.readUntilClosed(timeout: 45)
            #expect(closed && nothing.isEmpty, "a connection over the cap was served")

            held[0].hangUp()
            try await Task.sleep(for: .milliseconds(200))
            let next = try RawConnection(port: port(server))
            next.write("GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            let (data, _) = try await next.readUntilClosed(timeout: 45)
            #expect(RawConnection.response(data)?.status == 200)
        }
    }
}

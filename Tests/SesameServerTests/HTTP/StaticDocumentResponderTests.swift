import Foundation
import SesameProtocol
import SesameTesting
import StoreTesting
import Testing

@testable import SesameServer

/// The discovery documents answered on the event loop (``StaticDocumentResponder``): the same
/// answer as the router's, in request order on a pipelined connection, with the request's rate
/// limit and metrics, and the connection's deadlines kept.
@Suite("Static documents answered on the event loop")
struct StaticDocumentResponderTests {
    static let discovery = "/.well-known/openid-configuration"

    static func get(_ path: String, _ extra: String = "") -> String {
        "GET \(path) HTTP/1.1\r\nHost: sesame.test\r\n\(extra)\r\n"
    }

    /// Reads until `count` whole responses arrived (by `Content-Length`) or `timeout` passed.
    static func responses(_ connection: RawConnection, count: Int, timeout: TimeInterval = 30) async throws
        -> [HTTPWireResponse]
    {
        let deadline = Date().addingTimeInterval(timeout)
        var data = Data()
        while Date() < deadline {
            let parsed = HTTPWireResponse.parse(data)
            if parsed.count >= count { return parsed }
            switch try await connection.read(timeout: max(0.01, deadline.timeIntervalSinceNow)) {
            case .data(let more): data.append(more)
            case .closed, .silent: return HTTPWireResponse.parse(data)
            }
        }
        return HTTPWireResponse.parse(data)
    }

    @Test("the answer on the event loop is the router's, field for field; pipelined answers keep their order", arguments: [false, true])
    func sameAnswer(https: Bool) async throws {
        try await withTestServer(configure: {
            if https { $0.issuer = URL(string: "https://id.example.test") }
        }) { server in
            let connection = try RawConnection(port: server.running.port)
            let before = server.running.staticDocuments.answered
            // The JWKS goes to the router; the discovery request behind it must wait for its
            // answer, so the router answers it too.
            connection.write(Self.get("/jwks") + Self.get(Self.discovery))
            let first = try await Self.responses(connection, count: 2)
            #expect(first.count == 2)
            #expect(server.running.staticDocuments.answered == before)
            // The client may read the router's last byte before its response has ended on the
            // server's side; until then the next request goes to the router too.
            var second: [HTTPWireResponse] = []
            for _ in 0..<50 where server.running.staticDocuments.answered == before {
                connection.write(Self.get(Self.discovery))
                second = try await Self.responses(connection, count: 1)
                if server.running.staticDocuments.answered == before { try await Task.sleep(for: .milliseconds(20)) }
            }
            #expect(server.running.staticDocuments.answered == before + 1)
            let jwks = try #require(first.first)
            let router = try #require(first.last)
            let eventLoop = try #require(second.first)
            #expect(jwks.field("content-type") == "application/jwk-set+json")
            #expect(router.status == 200 && eventLoop.status == 200)
            #expect(router.body == eventLoop.body)
            let metadata = try JSONDecoder().decode(ProviderMetadata.self, from: eventLoop.body)
            #expect(metadata.issuer == server.issuer)
            // The same fields; the rate limit's remaining count goes on down by one.
            #expect(router.fields(except: ["date", "ratelimit"]) == eventLoop.fields(except: ["date", "ratelimit"]))
            let remaining = [router, eventLoop].compactMap {
                $0.field("ratelimit")?.split(separator: ";").first { $0.hasPrefix("r=") }.flatMap { Int($0.dropFirst(2)) }
            }
            #expect(remaining.count == 2 && remaining[0] - remaining[1] == 1, "\(remaining)")
            #expect(eventLoop.field("strict-transport-security") == (https ? "max-age=31536000" : nil))
            #expect(eventLoop.field("date").map { $0.hasSuffix(" GMT") && $0.count == 29 } == true)
            #expect(eventLoop.field("content-length") == String(eventLoop.body.count))
        }
    }

    @Test("a query, HTTP/1.0, Connection: close, a body or another method go to the router, which answers as before")
    func routerCases() async throws {
        try await withTestServer { server in
            let documents = server.running.staticDocuments
            for (name, request, closes) in [
                ("a query", Self.get(Self.discovery + "?x=1"), false),
                ("HTTP/1.0", "GET \(Self.discovery) HTTP/1.0\r\nHost: sesame.test\r\n\r\n", true),
                ("Connection: close", Self.get(Self.discovery, "Connection: close\r\n"), true),
                ("a body", Self.get(Self.discovery, "Content-Length: 2\r\n") + "{}", false),
                ("HEAD", "HEAD \(Self.discovery) HTTP/1.1\r\nHost: sesame.test\r\n\r\n", false),
            ] {
                let before = documents.answered
                let connection = try RawConnection(port: server.running.port)
                connection.write(request)
                let status: Int?
                let closed: Bool
                if closes {
                    let (data, sawClose) = try await connection.readUntilClosed(timeout: 30)
                    (status, closed) = (RawConnection.response(data)?.status, sawClose)
                } else {
                    // A whole answer, however long a loaded machine takes; then the connection
                    // stays open (a fixed 1 s read missed a late answer under CI's load).
                    let response =
                        name == "HEAD"
                        ? try await Self.headResponse(connection, timeout: 30)
                        : try await Self.responses(connection, count: 1).first
                    status = response?.status
                    closed = try await connection.read(timeout: 1) == .closed
                }
                #expect(try #require(status, "\(name): no answer") == 200, "\(name)")
                #expect(documents.answered == before, "\(name)")
                #expect(closed == closes, "\(name)")
            }
        }
    }

    /// NIO's encoder frames each response for the method its decoder recorded for the request
    /// (a `HEAD` answer has no body). Answers written past the encoder left their `GET`s in its
    /// queue, so a later `GET` was framed as the `HEAD` before it: `Content-Length` and no body.
    @Test("after answers on the event loop and a HEAD, each answer on the connection is framed for its own request")
    func framingAfterHead() async throws {
        try await withTestServer { server in
            let connection = try RawConnection(port: server.running.port)
            let before = server.running.staticDocuments.answered
            let head = "HEAD \(Self.discovery) HTTP/1.1\r\nHost: sesame.test\r\n\r\n"
            var statuses: [Int] = []
            var bodies: [Int] = []
            for request in [Self.get(Self.discovery), head, Self.get("/health/live"), Self.get("/health/live"), Self.get(Self.discovery)] {
                connection.write(request)
                // A HEAD answer announces the document's length and carries none of it.
                let isHead = request.hasPrefix("HEAD")
                let response = try #require(
                    try await isHead ? Self.headResponse(connection) : Self.responses(connection, count: 1, timeout: 5).first,
                    "no whole answer to \(request.prefix(30))")
                statuses.append(response.status)
                bodies.append(response.body.count)
            }
            #expect(statuses == [200, 200, 200, 200, 200])
            #expect(bodies[1] == 0 && bodies[2] > 0 && bodies[3] == bodies[2] && bodies[4] == bodies[0] && bodies[0] > 100, "\(bodies)")
            // The first on the event loop; the last too, unless it came before the router's answer
            // had ended on the server's side (then the router answers it).
            #expect((before + 1...before + 2).contains(server.running.staticDocuments.answered))
        }
    }

    /// The head of a `HEAD` answer: the fields up to the empty line, with no body.
    static func headResponse(_ connection: RawConnection, timeout: TimeInterval = 5) async throws -> HTTPWireResponse? {
        var data = Data()
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline, data.range(of: Data("\r\n\r\n".utf8)) == nil {
            guard case .data(let more) = try await connection.read(timeout: max(0.01, deadline.timeIntervalSinceNow)) else { break }
            data.append(more)
        }
        guard let end = data.range(of: Data("\r\n\r\n".utf8)) else { return nil }
        #expect(end.upperBound == data.count, "bytes after a HEAD answer's head")
        let status = String(decoding: data.prefix(12), as: UTF8.self).split(separator: " ").dropFirst().first.flatMap { Int($0) }
        return status.map { HTTPWireResponse(status: $0, headers: [], body: Data()) }
    }

    @Test("answered on the event loop, a request still pays its rate limit and is counted in the metrics")
    func rateLimitAndMetrics() async throws {
        let token = "metrics-token-" + String(repeating: "s", count: 24)
        try await withTestServer(configure: {
            $0.rateLimits.perAddress[.discovery] = RateLimitPolicy.Limit(3, per: 3600)
            $0.metrics = .bearerToken(token)
        }) { server in
            server.clock.freeze()
            let connection = try RawConnection(port: server.running.port)
            var statuses: [Int] = []
            var remaining: [String?] = []
            for _ in 0..<5 {
                connection.write(Self.get(Self.discovery))
                let response = try #require(try await Self.responses(connection, count: 1).first)
                statuses.append(response.status)
                remaining.append(response.field("ratelimit"))
            }
            #expect(statuses == [200, 200, 200, 429, 429])
            #expect(remaining.prefix(3).map { $0?.hasPrefix(#""discovery-address";r="#) } == [true, true, true])
            #expect(remaining.prefix(3).compactMap { $0?.split(separator: ";")[1] } == ["r=2", "r=1", "r=0"])
            #expect(server.running.staticDocuments.answered == 3)
            let text = try await server.client().get("/metrics", headers: ["Authorization": "Bearer " + token]).text
            let metrics = PrometheusText(text)
            let route = Self.discovery
            #expect(metrics.value(#"sesame_http_requests_total{route="\#(route)",method="GET",status="200"}"#) == 3)
            #expect(metrics.value(#"sesame_http_requests_total{route="\#(route)",method="GET",status="429"}"#) == 2)
        }
    }

    @Test("20 connections at once against a limit of 30: exactly 30 answers of 200, the rest 429")
    func concurrentLimit() async throws {
        try await withTestServer(configure: {
            $0.rateLimits.perAddress[.discovery] = RateLimitPolicy.Limit(30, per: 3600)
        }) { server in
            server.clock.freeze()
            let port = server.running.port
            let request = Self.get(Self.discovery)
            let statuses = try await withThrowingTaskGroup(of: [Int].self) { group in
                for _ in 0..<20 {
                    group.addTask {
                        let connection = try RawConnection(port: port)
                        // Three requests in one write: the second and third wait for the first.
                        connection.write(request + request + request)
                        return try await Self.responses(connection, count: 3).map(\.status)
                    }
                }
                return try await group.reduce(into: []) { $0 += $1 }
            }
            #expect(statuses.count == 60)
            #expect(statuses.filter { $0 == 200 }.count == 30)
            #expect(statuses.filter { $0 == 429 }.count == 30)
        }
    }

    @Test("a connection that only asks for discovery is kept while it asks, and closed after the idle timeout")
    func idleTimeout() async throws {
        try await withTestServer(configure: { $0.connectionLimits.idleTimeout = 1 }) { server in
            let connection = try RawConnection(port: server.running.port)
            // 2.4 s of requests 0.4 s apart: longer than the idle timeout, never idle that long.
            // The client runs on a thread of its own: on a loaded run the test's task may wait
            // seconds for the cooperative pool, and its pauses would pass the idle timeout.
            let request = Self.get(Self.discovery)
            let statuses = await withCheckedContinuation { (done: CheckedContinuation<[Int?], Never>) in
                Thread.detachNewThread {
                    var statuses: [Int?] = []
                    for _ in 0..<6 {
                        connection.write(request)
                        statuses.append(Self.blockingResponse(fd: connection.fd, timeout: 5)?.status)
                        usleep(400_000)
                    }
                    done.resume(returning: statuses)
                }
            }
            #expect(statuses == Array(repeating: 200, count: 6))
            #expect(server.running.staticDocuments.answered >= 6)
            let (_, closed) = try await connection.readUntilClosed(timeout: 10)
            #expect(closed)
        }
    }

    /// Reads one whole response from `fd`, blocking the calling thread (not a task's).
    static func blockingResponse(fd: Int32, timeout: TimeInterval) -> HTTPWireResponse? {
        let deadline = Date().addingTimeInterval(timeout)
        var data = Data()
        while Date() < deadline {
            if let response = HTTPWireResponse.parse(data).first { return response }
            var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, Int32(max(1, deadline.timeIntervalSinceNow * 1000))) > 0 else { return nil }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let count = recv(fd, &chunk, chunk.count, 0)
            guard count > 0 else { return nil }
            data.append(contentsOf: chunk[0..<count])
        }
        return nil
    }
}

/// The `Date` field's IMF-fixdate (RFC 9110 §5.6.7), against the RFC's own example and Foundation.
@Suite("HTTP Date field")
struct HTTPDateFieldTests {
    @Test("RFC 9110's example, the epoch, leap days, and 2,000 instants from 1900 to 9999 as Foundation formats them")
    func format() {
        #expect(HTTPDateField.format(784_111_777) == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(HTTPDateField.format(0) == "Thu, 01 Jan 1970 00:00:00 GMT")
        #expect(HTTPDateField.format(951_782_400) == "Tue, 29 Feb 2000 00:00:00 GMT")
        #expect(HTTPDateField.format(4_107_542_400) == "Mon, 01 Mar 2100 00:00:00 GMT")  // 2100 is no leap year
        #expect(HTTPDateField.format(-1) == "Wed, 31 Dec 1969 23:59:59 GMT")
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let seconds = Int.random(in: -2_208_988_800...253_402_300_799, using: &generator)  // 1900 to 9999
            #expect(
                HTTPDateField.format(seconds) == formatter.string(from: Date(timeIntervalSince1970: TimeInterval(seconds))),
                "\(seconds)")
        }
    }
}

/// One HTTP/1.1 response as read from the socket.
struct HTTPWireResponse {
    let status: Int
    /// The header fields, names in lower case, in order.
    let headers: [(name: String, value: String)]
    let body: Data

    func field(_ name: String) -> String? { headers.first { $0.name == name }?.value }

    /// The fields as a sorted list of `name: value` lines, without `names`.
    func fields(except names: Set<String>) -> [String] {
        headers.filter { !names.contains($0.name) }.map { "\($0.name): \($0.value)" }.sorted()
    }

    /// Every whole response in `data`, in order (bodies by `Content-Length`).
    static func parse(_ data: Data) -> [HTTPWireResponse] {
        var responses: [HTTPWireResponse] = []
        var rest = data[...]
        while let separator = rest.range(of: Data("\r\n\r\n".utf8)) {
            let head = String(decoding: rest[..<separator.lowerBound], as: UTF8.self)
            let lines = head.components(separatedBy: "\r\n")
            let statusParts = lines[0].split(separator: " ")
            guard statusParts.count >= 2, let status = Int(statusParts[1]) else { break }
            let headers = lines.dropFirst().compactMap { line -> (name: String, value: String)? in
                guard let colon = line.firstIndex(of: ":") else { return nil }
                return (line[..<colon].lowercased(), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
            }
            let length = headers.first { $0.name == "content-length" }.flatMap { Int($0.value) } ?? 0
            let bodyStart = separator.upperBound
            guard rest.distance(from: bodyStart, to: rest.endIndex) >= length else { break }
            let bodyEnd = rest.index(bodyStart, offsetBy: length)
            responses.append(HTTPWireResponse(status: status, headers: headers, body: Data(rest[bodyStart..<bodyEnd])))
            rest = rest[bodyEnd...]
        }
        return responses
    }
}

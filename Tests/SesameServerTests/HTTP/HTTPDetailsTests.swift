import Foundation
import SesameProtocol
import SesameTesting
import StoreTesting
import Testing

@testable import SesameServer

/// Issue #28 §6: HEAD where GET is (RFC 9110 §9.3.2), a request without Host is 400 (RFC 9112
/// §3.2), a declared body over the limit is answered 413 before the close, `nosniff` on every
/// answer and HSTS with an https issuer, and a rate-limited browser page is a localized HTML
/// page that says when to retry.
@Suite("HTTP details: HEAD, Host, 413, nosniff, HSTS, rate-limit pages")
struct HTTPDetailsTests {
    var port: (TestServer) -> Int { { $0.baseURL.port ?? 0 } }

    @Test("HEAD answers every GET route with the GET's status and headers and no body; 405 lists it in Allow")
    func head() async throws {
        try await withTestServer { server in
            for path in ["/health", "/.well-known/openid-configuration", "/jwks", "/", "/api/openapi.json"] {
                let get = try await server.client().request("GET", path)
                let head = try await server.client().request("HEAD", path)
                #expect(head.status == get.status && get.status == 200, "\(path): \(head.status)")
                #expect(head.body.isEmpty, "\(path)")
                #expect(head.header("Content-Type") == get.header("Content-Type"), "\(path)")
            }
            let put = try await server.client().request("PUT", "/jwks")
            #expect(put.status == 405 && put.header("Allow") == "GET, HEAD")
        }
    }

    @Test("an HTTP/1.1 request without Host, or with two, is 400 and closed; HTTP/1.0 may omit it")
    func host() async throws {
        try await withTestServer { server in
            for (name, request) in [
                ("no Host", "GET /health HTTP/1.1\r\n\r\n"),
                ("two Host lines", "GET /health HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n"),
                ("an empty Host", "GET /health HTTP/1.1\r\nHost: \r\n\r\n"),
            ] {
                let connection = try RawConnection(port: port(server))
                connection.write(request)
                let (data, closed) = try await connection.readUntilClosed(timeout: 45)
                let response = try #require(RawConnection.response(data), "\(name): no answer")
                #expect(response.status == 400, "\(name)")
                #expect(try JSONDecoder().decode(APIError.self, from: response.body).errorDescription?.contains("Host") == true)
                #expect(closed, "\(name)")
            }
            let old = try RawConnection(port: port(server))
            old.write("GET /health HTTP/1.0\r\n\r\n")
            let (data, _) = try await old.readUntilClosed(timeout: 45)
            #expect(RawConnection.response(data)?.status == 200)
        }
    }

    @Test("a declared Content-Length over 64 KiB is answered 413 with the JSON error, then closed")
    func declaredBodyTooLarge() async throws {
        try await withTestServer { server in
            let connection = try RawConnection(port: port(server))
            connection.write(
                "POST /token HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 1000000\r\n\r\ngrant_type=")
            let (data, closed) = try await connection.readUntilClosed(timeout: 45)
            let response = try #require(RawConnection.response(data), "no answer to an oversized body")
            #expect(response.status == 413)
            #expect(try JSONDecoder().decode(APIError.self, from: response.body).error == "invalid_request")
            #expect(closed)
        }
    }

    @Test("every answer is nosniff; an https issuer adds HSTS, an http one does not")
    func securityHeaders() async throws {
        try await withTestServer { server in
            for path in ["/health", "/jwks", "/userinfo", "/nowhere"] {
                let response = try await server.client().get(path)
                #expect(response.header("X-Content-Type-Options") == "nosniff", "\(path) \(response.status)")
                #expect(response.header("Strict-Transport-Security") == nil, "\(path)")
            }
        }
        try await withTestServer(configure: { $0.issuer = URL(string: "https://id.example.test") }) { server in
            let response = try await server.portClient().get("/.well-known/openid-configuration")
            #expect(response.header("Strict-Transport-Security") == "max-age=31536000")
            #expect(response.header("X-Content-Type-Options") == "nosniff")
        }
    }

    @Test("a rate-limited GET /authorize is the localized HTML page with Retry-After and a link to try again; the API stays JSON")
    func rateLimitedPage() async throws {
        let limits = RateLimitPolicy(perAddress: [.signIn: .init(1, per: 60)], perClient: [:])
        try await withTestServer(configure: { $0.rateLimits = limits }) { server in
            server.clock.freeze()
            let browser = server.client()
            let query = ["client_id": Fixtures.nativeApp, "response_type": "code", "redirect_uri": Fixtures.nativeRedirect]
            _ = try await browser.get("/authorize", query: query)
            let refused = try await browser.get("/authorize", query: query, headers: ["Accept-Language": "de"])
            #expect(refused.status == 429)
            #expect(refused.header("Content-Type")?.hasPrefix("text/html") == true)
            let retryAfter = try #require(refused.header("Retry-After").flatMap(Int.init))
            #expect(refused.text.contains("Warten Sie \(retryAfter) s"), "\(refused.text)")
            #expect(refused.text.contains("href=\"/authorize?"), "a link to try again")
            #expect(refused.header("Content-Security-Policy") != nil)

            let api = try await browser.postForm("/authorize-challenge", ["client_id": Fixtures.nativeApp, "username": "x", "password": "y"])
            #expect(api.status == 429)
            #expect(api.header("Content-Type") == "application/json")
        }
    }
}

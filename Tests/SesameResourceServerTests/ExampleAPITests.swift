import ExampleAPI
import Foundation
import Logging
import SesameResourceServer
import SesameTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The Hummingbird middleware, over real HTTP: the example API guarded by the real server's
/// tokens.
@Suite("Hummingbird middleware: the example API over HTTP")
struct ExampleAPITests {
    struct Answer {
        var status: Int
        var challenge: String?
        var json: [String: Any]
    }

    static func get(_ url: URL, authorization: String?) async throws -> Answer {
        var request = URLRequest(url: url)
        if let authorization { request.setValue(authorization, forHTTPHeaderField: "Authorization") }
        let (body, response) = try await URLSession.shared.data(for: request)
        let http = try #require(response as? HTTPURLResponse)
        let json = (try? JSONSerialization.jsonObject(with: body) as? [String: Any]) ?? [:]
        return Answer(status: http.statusCode, challenge: http.value(forHTTPHeaderField: "WWW-Authenticate"), json: json)
    }

    static func withAPI(_ body: (TestServer, URL) async throws -> Void) async throws {
        try await withTestServer { server in
            let api = try await ExampleAPIServer.start(
                validator: validator(for: server), logger: Logger(label: "example-api-test"))
            do {
                try await body(server, api.baseURL)
            } catch {
                await api.shutdown()
                throw error
            }
            await api.shutdown()
        }
    }

    @Test("a valid token reaches the handler, which sees the verified claims")
    func authorized() async throws {
        try await Self.withAPI { server, api in
            let token = try await clientCredentialsToken(server)
            let me = try await Self.get(api.appendingPathComponent("v1/me"), authorization: "Bearer \(token)")
            #expect(me.status == 200)
            #expect(me.json["sub"] as? String == Fixtures.backend)
            #expect(me.json["client_id"] as? String == Fixtures.backend)
            #expect(me.challenge == nil)
            let health = try await Self.get(api.appendingPathComponent("health"), authorization: nil)
            #expect(health.status == 200, "public routes stay public")
        }
    }

    @Test("no token: 401 with a bare challenge; a bad one: 401 invalid_token; a malformed header: 400")
    func refused() async throws {
        try await Self.withAPI { server, api in
            let me = api.appendingPathComponent("v1/me")
            let none = try await Self.get(me, authorization: nil)
            #expect(none.status == 401 && none.challenge == #"Bearer realm="example-api""#)
            #expect(none.json["error"] == nil)
            let basic = try await Self.get(me, authorization: "Basic YTpi")
            #expect(basic.status == 401 && basic.challenge == #"Bearer realm="example-api""#)

            let token = try await clientCredentialsToken(server)
            let tampered = String(token.dropLast(4)) + (token.hasSuffix("AAAA") ? "BBBB" : "AAAA")
            let bad = try await Self.get(me, authorization: "Bearer \(tampered)")
            #expect(bad.status == 401 && bad.json["error"] as? String == "invalid_token")
            #expect(bad.challenge?.hasPrefix(#"Bearer realm="example-api", error="invalid_token", error_description=""#) == true)

            server.clock.advance(by: 3 * 3600)
            let expired = try await Self.get(me, authorization: "Bearer \(token)")
            #expect(expired.status == 401 && (expired.json["error_description"] as? String)?.contains("expired") == true)

            let empty = try await Self.get(me, authorization: "Bearer ")
            #expect(empty.status == 400 && empty.json["error"] as? String == "invalid_request")
        }
    }

    @Test("a route needing a scope the token lacks: 403 insufficient_scope naming it")
    func scopes() async throws {
        try await Self.withAPI { server, api in
            var claims = CraftedClaims(server: server)
            claims.scope = "openid profile"
            let token = try await server.keyRing.sign(claims, algorithm: "RS256", type: "at+jwt")
            let profile = try await Self.get(api.appendingPathComponent("v1/profile"), authorization: "Bearer \(token)")
            #expect(profile.status == 200, "\(profile.json)")
            let admin = try await Self.get(api.appendingPathComponent("v1/admin"), authorization: "Bearer \(token)")
            #expect(admin.status == 403 && admin.json["error"] as? String == "insufficient_scope")
            #expect(admin.challenge?.contains(#"scope="admin""#) == true, "\(admin.challenge ?? "")")
        }
    }
}

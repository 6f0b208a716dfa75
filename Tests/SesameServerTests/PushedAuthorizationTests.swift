import Foundation
import SesameProtocol
import SesameStore
import SesameTesting
import StoreTesting
import Testing

/// Pushed authorization requests (RFC 9126, issue #32) over real HTTP: push, then `/authorize`
/// with the `request_uri`, sign in, exchange the code; and every refusal the RFC and the issue
/// name (a replayed, expired or foreign `request_uri`, a client that must push and did not).
@Suite("Pushed authorization requests (RFC 9126)")
struct PushedAuthorizationTests {
    /// Pushes `flow`'s request for `attempt` as the public client it names (`client_id` only).
    static func push(
        _ flow: OAuthFlow, _ attempt: OAuthFlow.Attempt, extra: [String: String] = [:], headers: [String: String] = [:]
    ) async throws -> TestResponse {
        try await flow.browser.postForm("/par", flow.parameters(attempt, extra: extra), headers: headers)
    }

    @Test("push, /authorize with the request_uri, sign in, token: the pushed parameters are the ones used", arguments: StoreBackend.available)
    func fullFlow(backend: StoreBackend) async throws {
        try await withTestServer(backend) { server in
            let flow = OAuthFlow(browser: server.client())
            let attempt = OAuthFlow.Attempt()
            let pushed = try await Self.push(flow, attempt)
            #expect(pushed.status == 201, "\(pushed.text)")
            #expect(pushed.header("Cache-Control") == "no-store")
            let response = try pushed.json(PushedAuthorizationResponse.self)
            #expect(response.requestURI.hasPrefix("urn:ietf:params:oauth:request_uri:"))
            #expect(response.expiresIn == 60)

            // Only client_id and request_uri travel through the browser.
            let page = try await flow.browser.get(
                "/authorize", query: ["client_id": Fixtures.nativeApp, "request_uri": response.requestURI])
            #expect(page.status == 200, "\(page.text)")
            let form = HTMLForm(html: page.text)
            #expect(form.fields["authorization_ref"] != nil, "the pushed request is held on the server")
            #expect(form.fields["state"] == nil && form.fields["code_challenge"] == nil)
            let redirect = try await flow.submitLogin(page: page)
            #expect(redirect.status == 303)
            #expect(redirect.locationQuery["state"] == attempt.state)
            let code = try #require(redirect.locationQuery["code"])
            let tokens = try await flow.exchange(code, attempt: attempt)
            #expect(tokens.status == 200, "\(tokens.text)")

            // Used once (RFC 9126 §4): the same request_uri again is refused, with a page.
            let again = try await flow.browser.get(
                "/authorize", query: ["client_id": Fixtures.nativeApp, "request_uri": response.requestURI])
            #expect(again.status == 400)
            #expect(HTMLForm(html: again.text).action != "/login", "no login form for a spent request_uri")
        }
    }

    @Test("a request_uri is refused when expired, under another client_id, unknown, or not a request_uri of ours")
    func refusedRequestURIs() async throws {
        try await withTestServer { server in
            let flow = OAuthFlow(browser: server.client())
            func pushed() async throws -> String {
                let response = try await Self.push(flow, OAuthFlow.Attempt())
                try #require(response.status == 201, "\(response.text)")
                return try response.json(PushedAuthorizationResponse.self).requestURI
            }
            let expired = try await pushed()
            server.clock.advance(by: 61)
            let late = try await flow.browser.get("/authorize", query: ["client_id": Fixtures.nativeApp, "request_uri": expired])
            #expect(late.status == 400, "60 s old")

            let foreign = try await pushed()
            let stolen = try await flow.browser.get("/authorize", query: ["client_id": Fixtures.secondApp, "request_uri": foreign])
            #expect(stolen.status == 400, "another client's request_uri")
            let spent = try await flow.browser.get("/authorize", query: ["client_id": Fixtures.nativeApp, "request_uri": foreign])
            #expect(spent.status == 400, "a request_uri presented with another client_id is spent")

            // Not one of ours: an OIDC Request Object by reference, which is not supported.
            let byReference = try await flow.authorize(OAuthFlow.Attempt(), extra: ["request_uri": "https://evil.example/r"])
            #expect(byReference.status == 303 && byReference.locationQuery["error"] == "request_uri_not_supported")
            for bogus in ["urn:ietf:params:oauth:request_uri:", "urn:ietf:params:oauth:request_uri:nope",
                          "urn:ietf:params:oauth:request_uri:" + String(repeating: "a", count: 5000)] {
                let response = try await flow.browser.get(
                    "/authorize", query: ["client_id": Fixtures.nativeApp, "request_uri": bogus])
                #expect(response.status == 400, "\(bogus.prefix(60))")
            }
            let noClient = try await flow.browser.get("/authorize", query: ["request_uri": try await pushed()])
            #expect(noClient.status == 400)
        }
    }

    @Test(
        "20 concurrent uses of one request_uri on two servers sharing PostgreSQL: exactly one login form",
        .needsPostgreSQL)
    func concurrentUse() async throws {
        try await withTwoServers { first, second in
            let flow = OAuthFlow(browser: first.client())
            let response = try await Self.push(flow, OAuthFlow.Attempt())
            let requestURI = try response.json(PushedAuthorizationResponse.self).requestURI
            let statuses = try await statusesAtOnce(20, over: [first.client(), second.portClient()]) { client in
                try await client.get("/authorize", query: ["client_id": Fixtures.nativeApp, "request_uri": requestURI]).status
            }
            #expect(statuses.filter { $0 == 200 }.count == 1, "\(statuses)")
            #expect(statuses.filter { $0 == 400 }.count == 19, "\(statuses)")
        }
    }

    @Test("a push is checked as /authorize would check it: each refusal is JSON 400 with /authorize's error code")
    func pushRefusals() async throws {
        try await withTestServer { server in
            let flow = OAuthFlow(browser: server.client())
            let cases: [(String, [String: String], String)] = [
                ("unregistered redirect_uri", ["redirect_uri": "https://evil.example/cb"], "invalid_request"),
                ("no PKCE", ["code_challenge_method": "plain"], "invalid_request"),
                ("request_uri inside", ["request_uri": "urn:ietf:params:oauth:request_uri:x"], "invalid_request"),
                ("implicit", ["response_type": "token"], "unsupported_response_type"),
                ("another client_id in the body", ["client_id": Fixtures.secondApp], "invalid_request"),
                ("a huge parameter", ["state": String(repeating: "s", count: 5000)], "invalid_request"),
            ]
            for (name, extra, error) in cases {
                let response = try await Self.push(flow, OAuthFlow.Attempt(), extra: extra)
                #expect(response.status == 400, "\(name): \(response.status) \(response.text)")
                let body = try? JSONSerialization.jsonObject(with: response.body) as? [String: Any]
                #expect(body?["error"] as? String == error, "\(name): \(response.text)")
            }
            // A confidential client must authenticate; a wrong secret is invalid_client 401.
            var backend = OAuthFlow(browser: server.client())
            backend.clientID = Fixtures.backend
            backend.redirectURI = Fixtures.backendRedirect
            backend.scope = "openid"
            let anonymous = try await Self.push(backend, OAuthFlow.Attempt())
            #expect(anonymous.status == 401, "\(anonymous.text)")
            let refused = try await server.client().rawPostForm(
                "/par", backend.parameters(OAuthFlow.Attempt()), headers: HTTPTestClient.basic(Fixtures.backend, "nope"))
            #expect(refused.status == 401)
            #expect(refused.header("WWW-Authenticate")?.hasPrefix("Basic") == true)
            let right = Data("\(Fixtures.backend):\(Fixtures.backendSecret)".utf8).base64EncodedString()
            let accepted = try await Self.push(backend, OAuthFlow.Attempt(), headers: ["Authorization": "Basic \(right)"])
            #expect(accepted.status == 201, "\(accepted.text)")
            // Parameters in the query are refused (RFC 9126 §2.1: the body only).
            let query = try await server.client().postForm(
                "/par?client_id=\(Fixtures.nativeApp)", flow.parameters(OAuthFlow.Attempt()))
            #expect(query.status == 400)
        }
    }

    @Test("a client registered with require_pushed_requests, or every client on a server that requires PAR, is refused at /authorize without a push")
    func requiredPushes() async throws {
        try await withTestServer { server in
            var client = try #require(try await server.store.client(id: Fixtures.nativeApp))
            client.requirePushedRequests = true
            try await server.store.upsertClient(client)
            let flow = OAuthFlow(browser: server.client())
            let attempt = OAuthFlow.Attempt()
            let direct = try await flow.authorize(attempt)
            #expect(direct.status == 303, "an error sent back to the client")
            #expect(direct.locationQuery["error"] == "invalid_request")
            #expect(direct.locationQuery["state"] == attempt.state)
            let pushed = try await Self.push(flow, attempt).json(PushedAuthorizationResponse.self)
            let page = try await flow.browser.get(
                "/authorize", query: ["client_id": Fixtures.nativeApp, "request_uri": pushed.requestURI])
            #expect(page.status == 200)
            // Another client of the same server is not affected.
            var second = OAuthFlow(browser: server.client())
            second.clientID = Fixtures.secondApp
            second.redirectURI = Fixtures.secondRedirect
            #expect(try await second.authorize(OAuthFlow.Attempt()).status == 200)
        }
        try await withTestServer(configure: { $0.requirePushedRequests = true }) { server in
            let discovery = try await server.client().get("/.well-known/openid-configuration")
            let metadata = try discovery.json(ProviderMetadata.self)
            #expect(metadata.requirePushedAuthorizationRequests == true)
            #expect(metadata.pushedAuthorizationRequestEndpoint?.absoluteString == server.issuer + "/par")
            var second = OAuthFlow(browser: server.client())
            second.clientID = Fixtures.secondApp
            second.redirectURI = Fixtures.secondRedirect
            let refused = try await second.authorize(OAuthFlow.Attempt())
            #expect(refused.status == 303 && refused.locationQuery["error"] == "invalid_request")
        }
    }
}

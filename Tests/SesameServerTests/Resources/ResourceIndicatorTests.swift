import Foundation
import SesameProtocol
import SesameStore
import SesameTesting
import StoreTesting
import Testing

/// Audience-restricted access tokens (RFC 8707, issue #49) over real HTTP: registered APIs,
/// `resource` at `/authorize`, `/par` and `/token`, the token's `aud` and scopes per API,
/// narrowing at the token request and at refresh (§2.2), `invalid_target` for every API that is
/// unknown, not the client's or not authorized, and what the issuer's own endpoints make of a
/// token that is not for them.
@Suite("Resource indicators (RFC 8707)")
struct ResourceIndicatorTests {
    static let shop = "https://shop-api.example.com"
    static let points = "https://points-api.example.com"
    static let bank = "https://bank-api.example.com"

    /// Registers three APIs and lets the native app ask for the shop and points APIs.
    static func register(_ server: TestServer, defaultResource: String? = nil) async throws {
        try await server.store.upsertAPI(APIRecord(identifier: shop, name: "Shop", scopes: ["orders:read", "orders:write"]))
        try await server.store.upsertAPI(APIRecord(identifier: points, name: "Points", scopes: ["points:read"]))
        try await server.store.upsertAPI(APIRecord(identifier: bank, name: "Bank", scopes: ["payments:write"]))
        for id in [Fixtures.nativeApp, Fixtures.backend] {
            var client = try #require(try await server.store.client(id: id))
            client.resources = [shop, points]
            client.defaultResource = defaultResource
            try await server.store.upsertClient(client)
        }
    }

    static func claims(_ response: TestResponse) throws -> [String: Any] {
        try #require(response.status == 200, "\(response.text)")
        let token = try #require(try response.json(TokenResponse.self).accessToken as String?)
        return JWTParts.payload(token)
    }

    static func audience(_ claims: [String: Any]) -> [String] {
        (claims["aud"] as? [String]) ?? [(claims["aud"] as? String) ?? ""]
    }

    @Test("a code for two APIs: the token request narrows to one, refresh narrows to the other, and widening is invalid_target", arguments: StoreBackend.available)
    func codeAndRefreshNarrowing(backend: StoreBackend) async throws {
        try await withTestServer(backend) { server in
            try await Self.register(server)
            var flow = OAuthFlow(browser: server.client())
            flow.scope = "openid profile offline_access orders:read points:read"
            let attempt = OAuthFlow.Attempt()
            // `resource` twice in the query (RFC 8707 §2: "multiple resource parameters").
            var query = flow.parameters(attempt)
            query["resource"] = Self.shop
            let url = "/authorize?" + FormURLEncoding.encode(query) + "&resource=" + FormURLEncoding.escape(Self.points)
            let page = try await flow.browser.get(url)
            try #require(page.status == 200, "\(page.text)")
            let redirect = try await flow.submitLogin(page: page)
            let code = try #require(redirect.locationQuery["code"], "\(redirect.location ?? "")")

            let exchanged = try await flow.browser.postForm(
                "/token",
                [
                    "grant_type": "authorization_code", "code": code, "redirect_uri": flow.redirectURI,
                    "client_id": flow.clientID, "code_verifier": attempt.pkce.verifier, "resource": Self.shop,
                ])
            let shopClaims = try Self.claims(exchanged)
            #expect(Self.audience(shopClaims) == [Self.shop, server.issuer])
            #expect(shopClaims["scope"] as? String == "openid profile offline_access orders:read")
            let tokens = try exchanged.json(TokenResponse.self)
            #expect(tokens.scope == "openid profile offline_access orders:read")
            #expect(tokens.idToken != nil)
            var refreshToken = try #require(tokens.refreshToken)

            // The userinfo endpoint still answers: the issuer is in aud with the OpenID scopes.
            #expect(try await flow.browser.userInfo(tokens.accessToken).status == 200)

            // Refresh without resource: both APIs of the grant.
            var refreshed = try await flow.browser.postForm(
                "/token", ["grant_type": "refresh_token", "refresh_token": refreshToken, "client_id": flow.clientID])
            #expect(Self.audience(try Self.claims(refreshed)) == [Self.shop, Self.points, server.issuer])
            refreshToken = try #require(try refreshed.json(TokenResponse.self).refreshToken)

            // Refresh narrowed to the points API, without openid: aud is that API alone.
            refreshed = try await flow.browser.postForm(
                "/token",
                [
                    "grant_type": "refresh_token", "refresh_token": refreshToken, "client_id": flow.clientID,
                    "resource": Self.points, "scope": "points:read orders:read",
                ])
            let pointsClaims = try Self.claims(refreshed)
            #expect(Self.audience(pointsClaims) == [Self.points])
            #expect(pointsClaims["scope"] as? String == "points:read")
            let pointsTokens = try refreshed.json(TokenResponse.self)
            refreshToken = try #require(pointsTokens.refreshToken)
            // Not for the issuer: /userinfo refuses it; introspection still describes it.
            #expect(try await flow.browser.userInfo(pointsTokens.accessToken).status == 401)
            let introspected = try await flow.browser.introspect(pointsTokens.accessToken)
            let description = try #require(try JSONSerialization.jsonObject(with: introspected.body) as? [String: Any])
            #expect(description["active"] as? Bool == true)
            #expect(description["aud"] as? [String] == [Self.points])

            // Widening at refresh: an API of the client that the grant did not include, and one
            // the client may not have. Bad input loses nothing: the token stays current.
            for (resource, says) in [(Self.bank, "may not ask"), ("https://nowhere.example.com", "not an API registered")] {
                let refused = try await flow.browser.postForm(
                    "/token",
                    [
                        "grant_type": "refresh_token", "refresh_token": refreshToken, "client_id": flow.clientID,
                        "resource": resource,
                    ])
                #expect(refused.status == 400)
                let error = try refused.json(APIError.self)
                #expect(error.error == "invalid_target" && error.errorDescription?.contains(says) == true, "\(refused.text)")
            }
            let stillCurrent = try await flow.browser.postForm(
                "/token", ["grant_type": "refresh_token", "refresh_token": refreshToken, "client_id": flow.clientID])
            #expect(stillCurrent.status == 200, "\(stillCurrent.text)")
        }
    }

    @Test("at /authorize an unknown, foreign or malformed resource redirects with invalid_target; an API's scopes are the client's through it")
    func authorizeRefusals() async throws {
        try await withTestServer { server in
            try await Self.register(server)
            let flow = OAuthFlow(browser: server.client())
            for (resource, says) in [
                ("https://nowhere.example.com", "not an API registered"), (Self.bank, "may not ask"),
                (Self.shop + "#fragment", "fragment"), ("http://shop-api.example.com", "https"), ("shop-api", "absolute URI"),
                (String(repeating: "a", count: 600), "longer than"),
            ] {
                let attempt = OAuthFlow.Attempt()
                let page = try await flow.authorize(attempt, extra: ["resource": resource])
                #expect(page.status == 303, "\(resource): \(page.status) \(page.text)")
                #expect(page.locationQuery["error"] == "invalid_target", "\(resource)")
                #expect(page.locationQuery["error_description"]?.contains(says) == true, "\(page.locationQuery)")
                #expect(page.locationQuery["state"] == attempt.state)
            }
            // An API scope without the API's registration is not the client's.
            var other = flow
            other.scope = "openid payments:write"
            let refused = try await other.authorize(OAuthFlow.Attempt(), extra: ["resource": Self.shop])
            #expect(refused.locationQuery["error"] == "invalid_scope", "\(refused.location ?? "")")
            // Another repeated parameter is still refused (RFC 6749 §3.1).
            let attempt = OAuthFlow.Attempt()
            let twice = try await flow.browser.get(
                "/authorize?" + FormURLEncoding.encode(flow.parameters(attempt)) + "&scope=openid")
            #expect(twice.status == 400, "\(twice.status)")
        }
    }

    @Test("a pushed request carries the APIs; a client's default API applies without resource")
    func pushedAndDefault() async throws {
        try await withTestServer { server in
            try await Self.register(server, defaultResource: Self.shop)
            var flow = OAuthFlow(browser: server.client())
            flow.scope = "orders:read points:read offline_access"
            let attempt = OAuthFlow.Attempt()
            let pushed = try await PushedAuthorizationTests.push(flow, attempt, extra: ["resource": Self.points])
            try #require(pushed.status == 201, "\(pushed.text)")
            let requestURI = try pushed.json(PushedAuthorizationResponse.self).requestURI
            let page = try await flow.browser.get("/authorize", query: ["client_id": flow.clientID, "request_uri": requestURI])
            let redirect = try await flow.submitLogin(page: page)
            let code = try #require(redirect.locationQuery["code"])
            let pointsClaims = try Self.claims(try await flow.exchange(code, attempt: attempt))
            #expect(Self.audience(pointsClaims) == [Self.points])
            #expect(pointsClaims["scope"] as? String == "points:read")

            // Without resource: the client's default API, never the issuer.
            let (tokens, _) = try await flow.tokens()
            let claims = JWTParts.payload(tokens.accessToken)
            #expect(Self.audience(claims) == [Self.shop])
            #expect(claims["scope"] as? String == "orders:read")
            #expect(try await flow.browser.userInfo(tokens.accessToken).status == 401)
        }
    }

    @Test("client credentials: resource picks the API and its scopes; other scopes and APIs are refused")
    func clientCredentials() async throws {
        try await withTestServer { server in
            try await Self.register(server)
            let client = server.client()
            let basic = HTTPTestClient.basic(Fixtures.backend, Fixtures.backendSecret)
            let all = try Self.claims(
                try await client.postForm("/token", ["grant_type": "client_credentials", "resource": Self.shop], headers: basic))
            #expect(Self.audience(all) == [Self.shop])
            #expect(all["scope"] as? String == "orders:read orders:write")

            let one = try Self.claims(
                try await client.postForm(
                    "/token", ["grant_type": "client_credentials", "resource": Self.shop, "scope": "orders:read"], headers: basic))
            #expect(one["scope"] as? String == "orders:read")

            let wrongScope = try await client.postForm(
                "/token", ["grant_type": "client_credentials", "resource": Self.shop, "scope": "points:read"], headers: basic)
            #expect(wrongScope.status == 400 && wrongScope.text.contains("invalid_scope"), "\(wrongScope.text)")
            let foreign = try await client.postForm(
                "/token", ["grant_type": "client_credentials", "resource": Self.bank], headers: basic)
            #expect(foreign.status == 400 && foreign.text.contains("invalid_target"), "\(foreign.text)")

            // Without resource and without a default API: the issuer's token, as before APIs.
            let plain = try Self.claims(try await client.postForm("/token", ["grant_type": "client_credentials"], headers: basic))
            #expect(Self.audience(plain) == [server.issuer])
        }
    }
}

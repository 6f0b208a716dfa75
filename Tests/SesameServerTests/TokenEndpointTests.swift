import SesameTesting
import Foundation
import StoreTesting
import SesameProtocol
import Testing

@Suite("Token endpoint")
struct TokenEndpointTests {
    @Test("client_credentials with client_secret_basic and client_secret_post", arguments: StoreBackend.available)
    func clientCredentials(backend: StoreBackend) async throws {
        try await withTestServer(backend) { server in
            let client = server.client()
            let basic = try await client.postForm(
                "/token", ["grant_type": "client_credentials", "scope": "api.read"],
                headers: HTTPTestClient.basic(Fixtures.backend, Fixtures.backendSecret))
            #expect(basic.status == 200)
            let tokens = try basic.json(TokenResponse.self)
            #expect(tokens.refreshToken == nil)
            #expect(tokens.idToken == nil)
            #expect(tokens.scope == "api.read")
            let claims = JWTParts.payload(tokens.accessToken)
            #expect(claims["sub"] as? String == Fixtures.backend)
            #expect(claims["client_id"] as? String == Fixtures.backend)
            #expect(claims["aud"] as? String == server.issuer)

            let post = try await client.postForm(
                "/token",
                [
                    "grant_type": "client_credentials", "client_id": Fixtures.backend,
                    "client_secret": Fixtures.backendSecret,
                ])
            #expect(post.status == 200)
            #expect(try post.json(TokenResponse.self).scope == "api.read api.write")

            let introspection = try await client.introspect(tokens.accessToken)
            #expect(try introspection.json(IntrospectionResponse.self).active)
        }
    }

    @Test("wrong client secret is 401 invalid_client with the API error fields", arguments: StoreBackend.available)
    func wrongSecret(backend: StoreBackend) async throws {
        try await withTestServer(backend) { server in
            let client = server.client()
            // HTTP Basic failures challenge with WWW-Authenticate, which URLSession on Linux
            // swallows; read the raw response.
            let basic = try await client.rawPostForm(
                "/token", ["grant_type": "client_credentials"],
                headers: HTTPTestClient.basic(Fixtures.backend, "wrong"))
            #expect(basic.status == 401)
            #expect(basic.header("WWW-Authenticate")?.hasPrefix("Basic") == true)
            let error = try basic.json(APIError.self)
            #expect(error.error == "invalid_client")
            #expect(error.code == .invalidClient)
            #expect(error.errorMessageKey == "error.invalid_client")
            #expect(error.errorUserMessage?.isEmpty == false)
            let errorID = try #require(error.errorID)
            #expect(UUID(uuidString: errorID) != nil)
            #expect(basic.header("Cache-Control") == "no-store")

            let post = try await client.postForm(
                "/token",
                ["grant_type": "client_credentials", "client_id": Fixtures.backend, "client_secret": "wrong"])
            #expect(post.status == 401)
            #expect(try post.json(APIError.self).error == "invalid_client")

            let missing = try await client.postForm(
                "/token", ["grant_type": "client_credentials", "client_id": Fixtures.backend])
            #expect(missing.status == 401)

            let unknown = try await client.postForm(
                "/token", ["grant_type": "client_credentials", "client_id": "nobody", "client_secret": "x"])
            #expect(unknown.status == 401)
            // Each error gets its own id.
            #expect(try post.json(APIError.self).errorID != missing.json(APIError.self).errorID)
        }
    }

    @Test("public clients cannot use client_credentials; no password grant; grant_type required", arguments: StoreBackend.available)
    func grantRules(backend: StoreBackend) async throws {
        try await withTestServer(backend) { server in
            let client = server.client()
            let publicCC = try await client.postForm(
                "/token", ["grant_type": "client_credentials", "client_id": Fixtures.nativeApp])
            #expect(publicCC.status == 400)
            #expect(try publicCC.json(APIError.self).error == "unauthorized_client")

            let password = try await client.postForm(
                "/token",
                [
                    "grant_type": "password", "client_id": Fixtures.nativeApp,
                    "username": Fixtures.username, "password": Fixtures.password,
                ])
            #expect(password.status == 400)
            #expect(try password.json(APIError.self).error == "unsupported_grant_type")

            // Token exchange is for clients of an app group (single sign-on) only.
            let exchange = try await client.postForm(
                "/token",
                ["grant_type": "urn:ietf:params:oauth:grant-type:token-exchange", "client_id": Fixtures.nativeApp])
            #expect(try exchange.json(APIError.self).error == "unauthorized_client")

            let none = try await client.postForm("/token", ["client_id": Fixtures.nativeApp])
            #expect(try none.json(APIError.self).error == "invalid_request")

            let scope = try await client.postForm(
                "/token", ["grant_type": "client_credentials", "scope": "openid"],
                headers: HTTPTestClient.basic(Fixtures.backend, Fixtures.backendSecret))
            #expect(try scope.json(APIError.self).error == "invalid_scope")
        }
    }

    @Test("only form bodies are accepted; repeated parameters are refused; an oversized body is 413", arguments: StoreBackend.available)
    func bodyFormat(backend: StoreBackend) async throws {
        try await withTestServer(backend) { server in
            let client = server.client()
            let json = try await client.post(
                "/token", body: Data(#"{"grant_type":"client_credentials"}"#.utf8),
                headers: ["Content-Type": "application/json"])
            #expect(json.status == 400)
            #expect(try json.json(APIError.self).error == "invalid_request")

            let repeated = try await client.post(
                "/token",
                body: Data("grant_type=client_credentials&grant_type=client_credentials&client_id=backend".utf8),
                headers: ["Content-Type": "application/x-www-form-urlencoded"])
            #expect(repeated.status == 400)
            #expect(try repeated.json(APIError.self).error == "invalid_request")

            // RFC 6749 §3.1: unrecognized parameters are ignored, even repeated ones; the grant
            // is reached (an unknown client, here) instead of a refusal of the body.
            let unknownRepeated = try await client.post(
                "/token",
                body: Data("grant_type=client_credentials&client_id=nobody&x-extra=1&x-extra=2".utf8),
                headers: ["Content-Type": "application/x-www-form-urlencoded"])
            #expect(unknownRepeated.status == 401, "\(unknownRepeated.text)")
            #expect(try unknownRepeated.json(APIError.self).error == "invalid_client")

            let padding = String(repeating: "a", count: 70 * 1024)
            let oversized = try await client.post(
                "/token", body: Data("grant_type=client_credentials&client_id=backend&pad=\(padding)".utf8),
                headers: ["Content-Type": "application/x-www-form-urlencoded"])
            #expect(oversized.status == 413)
            #expect(try oversized.json(APIError.self).error == "invalid_request")

            // The media type is case-insensitive and may carry parameters (RFC 9110 §8.3.1):
            // these reach the grant (unknown client), unlike a JSON body.
            for contentType in [
                "Application/X-WWW-Form-Urlencoded", "application/x-www-form-urlencoded ; charset=UTF-8",
                "application/x-www-form-urlencoded;charset=utf-8",
            ] {
                let response = try await client.post(
                    "/token", body: Data("grant_type=client_credentials&client_id=nobody".utf8),
                    headers: ["Content-Type": contentType])
                #expect(response.status == 401, "\(contentType)")
                #expect(try response.json(APIError.self).error == "invalid_client", "\(contentType)")
            }
            for contentType in ["application/x-www-form-urlencodedx", "text/plain", ""] {
                let response = try await client.post(
                    "/token", body: Data("grant_type=client_credentials&client_id=nobody".utf8),
                    headers: ["Content-Type": contentType])
                #expect(try response.json(APIError.self).error == "invalid_request", "\(contentType)")
            }
        }
    }

    @Test("a code cannot be redeemed by another client", arguments: StoreBackend.available)
    func codeBoundToClient(backend: StoreBackend) async throws {
        try await withTestServer(backend) { server in
            let browser = server.client()
            let flow = OAuthFlow(browser: browser)
            let attempt = OAuthFlow.Attempt()
            let code = try await flow.signIn(attempt)
            let stolen = try await browser.postForm(
                "/token",
                [
                    "grant_type": "authorization_code", "code": code,
                    "redirect_uri": Fixtures.nativeRedirect, "client_id": Fixtures.secondApp,
                    "code_verifier": attempt.pkce.verifier,
                ])
            #expect(stolen.status == 400)
            #expect(try stolen.json(APIError.self).error == "invalid_grant")
        }
    }
}

import SesameTesting
import Foundation
import StoreTesting
import SesameProtocol
import Testing

@Suite("Revocation (RFC 7009) and introspection (RFC 7662)")
struct RevocationIntrospectionTests {
    @Test("introspection requires a confidential client", arguments: StoreBackend.available)
    func introspectionNeedsClientAuth(backend: StoreBackend) async throws {
        try await withTestServer(backend) { server in
            let browser = server.client()
            let (tokens, _) = try await OAuthFlow(browser: browser).tokens()
            let anonymous = try await browser.postForm("/introspect", ["token": tokens.accessToken])
            #expect(anonymous.status == 401)
            #expect(try anonymous.json(APIError.self).error == "invalid_client")
            let publicClient = try await browser.postForm(
                "/introspect", ["token": tokens.accessToken, "client_id": Fixtures.nativeApp])
            #expect(publicClient.status == 401)
            let wrongSecret = try await browser.rawPostForm(
                "/introspect", ["token": tokens.accessToken],
                headers: HTTPTestClient.basic(Fixtures.backend, "nope"))
            #expect(wrongSecret.header("WWW-Authenticate")?.hasPrefix("Basic") == true)
            #expect(wrongSecret.status == 401)
        }
    }

    @Test("active access and refresh tokens introspect with their claims", arguments: StoreBackend.available)
    func activeTokens(backend: StoreBackend) async throws {
        try await withTestServer(backend) { server in
            let browser = server.client()
            let (tokens, _) = try await OAuthFlow(browser: browser).tokens()
            let user = try #require(try await server.store.user(login: Fixtures.username))
            let access = try await browser.introspect(tokens.accessToken).json(IntrospectionResponse.self)
            #expect(access.active)
            #expect(access.sub == user.id)
            #expect(access.clientID == Fixtures.nativeApp)
            #expect(access.scope == "openid profile email offline_access")
            #expect(access.iss == server.issuer)
            let refresh = try await browser.introspect(try #require(tokens.refreshToken))
                .json(IntrospectionResponse.self)
            #expect(refresh.active)
            #expect(refresh.tokenType == "refresh_token")
            let garbage = try await browser.introspect("not-a-token").json(IntrospectionResponse.self)
            #expect(garbage == .inactive)
        }
    }

    @Test("a rotated refresh token introspects inactive; its successor active", arguments: StoreBackend.available)
    func rotatedRefreshToken(backend: StoreBackend) async throws {
        try await withTestServer(backend) { server in
            let browser = server.client()
            let (tokens, _) = try await OAuthFlow(browser: browser).tokens()
            let first = try #require(tokens.refreshToken)
            let refreshed = try await browser.refresh(first)
            #expect(refreshed.status == 200)
            let successor = try #require(try refreshed.json(TokenResponse.self).refreshToken)
            #expect(try await browser.introspect(first).json(IntrospectionResponse.self) == .inactive)
            let current = try await browser.introspect(successor).json(IntrospectionResponse.self)
            #expect(current.active)
            #expect(current.tokenType == "refresh_token")
            #expect(current.clientID == Fixtures.nativeApp)
        }
    }

    @Test("revoking an access token makes it inactive and unusable at userinfo", arguments: StoreBackend.available)
    func revokeAccessToken(backend: StoreBackend) async throws {
        try await withTestServer(backend) { server in
            let browser = server.client()
            let (tokens, _) = try await OAuthFlow(browser: browser).tokens()
            #expect(try await browser.userInfo(tokens.accessToken).status == 200)
            let revoke = try await browser.postForm(
                "/revoke", ["token": tokens.accessToken, "client_id": Fixtures.nativeApp])
            #expect(revoke.status == 200)
            let result = try await browser.introspect(tokens.accessToken).json(IntrospectionResponse.self)
            #expect(result == .inactive)
            #expect(try await browser.userInfo(tokens.accessToken).status == 401)
            // The refresh token of the grant still works: only the access token was revoked.
            let refreshToken = try #require(tokens.refreshToken)
            #expect(try await browser.refresh(refreshToken).status == 200)
        }
    }

    @Test("revoking a refresh token revokes its family and the family's access tokens", arguments: StoreBackend.available)
    func revokeRefreshToken(backend: StoreBackend) async throws {
        try await withTestServer(backend) { server in
            let browser = server.client()
            let (tokens, _) = try await OAuthFlow(browser: browser).tokens()
            let refresh = try #require(tokens.refreshToken)
            let revoke = try await browser.postForm(
                "/revoke",
                ["token": refresh, "token_type_hint": "refresh_token", "client_id": Fixtures.nativeApp])
            #expect(revoke.status == 200)
            #expect(try await browser.introspect(refresh).json(IntrospectionResponse.self) == .inactive)
            #expect(try await browser.introspect(tokens.accessToken).json(IntrospectionResponse.self) == .inactive)
            #expect(try await browser.refresh(refresh).status == 400)
        }
    }

    @Test("another client's revocation request is refused (unauthorized_client, RFC 7009 section 2.1) and changes nothing; an unknown token answers 200", arguments: StoreBackend.available)
    func foreignAndUnknownTokens(backend: StoreBackend) async throws {
        try await withTestServer(backend) { server in
            let browser = server.client()
            let (tokens, _) = try await OAuthFlow(browser: browser).tokens()
            let foreign = try await browser.postForm(
                "/revoke", ["token": try #require(tokens.refreshToken), "client_id": Fixtures.secondApp])
            #expect(foreign.status == 400)
            #expect(foreign.jsonObject["error"] as? String == "unauthorized_client")
            let stillActive = try await browser.introspect(try #require(tokens.refreshToken))
            #expect(try stillActive.json(IntrospectionResponse.self).active)
            let unknown = try await browser.postForm(
                "/revoke", ["token": "unknown", "client_id": Fixtures.nativeApp])
            #expect(unknown.status == 200)
            let badHint = try await browser.postForm(
                "/revoke", ["token": "x", "token_type_hint": "id_token", "client_id": Fixtures.nativeApp])
            #expect(badHint.status == 200)
        }
    }

    @Test("RFC 7009 §2.1 / RFC 7662 §2.1: an unknown or wrong token_type_hint is ignored and the token still found", arguments: StoreBackend.available)
    func unknownHintExtendsTheSearch(backend: StoreBackend) async throws {
        try await withTestServer(backend) { server in
            let browser = server.client()
            let (tokens, _) = try await OAuthFlow(browser: browser).tokens()
            let refresh = try #require(tokens.refreshToken)
            let introspected = try await browser.introspect(refresh, hint: "weird")
            #expect(try introspected.json(IntrospectionResponse.self).active)
            // A wrong hint (refresh_token for an access token) is no obstacle either.
            let access = try await browser.introspect(tokens.accessToken, hint: "refresh_token")
            #expect(try access.json(IntrospectionResponse.self).active)
            let revoked = try await browser.postForm(
                "/revoke", ["token": refresh, "token_type_hint": "weird", "client_id": Fixtures.nativeApp])
            #expect(revoked.status == 200)
            #expect(try await browser.introspect(refresh).json(IntrospectionResponse.self).active == false)
        }
    }
}

import SesameTesting
import Foundation
import StoreTesting
import SesameProtocol
import Testing
@testable import SesameServer

@Suite("Refresh tokens")
struct RefreshTokenTests {
    @Test("every refresh rotates the token and returns a new ID token with the same auth_time and sid", arguments: StoreBackend.available)
    func rotation(backend: StoreBackend) async throws {
        try await withTestServer(backend) { server in
            let browser = server.client()
            let (first, _) = try await OAuthFlow(browser: browser).tokens()
            let oldRefresh = try #require(first.refreshToken)
            server.clock.advance(by: 30)
            let response = try await browser.refresh(oldRefresh)
            #expect(response.status == 200)
            #expect(response.header("Cache-Control") == "no-store")
            let second = try response.json(TokenResponse.self)
            let newRefresh = try #require(second.refreshToken)
            #expect(newRefresh != oldRefresh)
            #expect(second.accessToken != first.accessToken)
            #expect(second.scope == "openid profile email offline_access")

            let a = try await server.keyRing.verify(try #require(first.idToken), as: IDTokenClaims.self)
            let b = try await server.keyRing.verify(try #require(second.idToken), as: IDTokenClaims.self)
            #expect(a.authTime == b.authTime)
            #expect(a.sid == b.sid)
            #expect(a.sub == b.sub)
            #expect(b.iat > a.iat)
            #expect(b.atHash == TokenIssuer.atHash(second.accessToken))

            let third = try await browser.refresh(newRefresh)
            #expect(third.status == 200)
        }
    }

    @Test("reusing a rotated refresh token revokes the whole family", arguments: StoreBackend.available)
    func reuseDetection(backend: StoreBackend) async throws {
        try await withTestServer(backend) { server in
            let browser = server.client()
            let (first, _) = try await OAuthFlow(browser: browser).tokens()
            let old = try #require(first.refreshToken)
            let rotated = try await browser.refresh(old).json(TokenResponse.self)
            let current = try #require(rotated.refreshToken)

            let replay = try await browser.refresh(old)
            #expect(replay.status == 400)
            #expect(try replay.json(APIError.self).error == "invalid_grant")

            let afterReplay = try await browser.refresh(current)
            #expect(afterReplay.status == 400)
            #expect(try afterReplay.json(APIError.self).error == "invalid_grant")
            #expect(try await browser.userInfo(rotated.accessToken).status == 401)
            #expect(try await browser.introspect(rotated.accessToken).json(IntrospectionResponse.self).active == false)
        }
    }

    @Test("scope may narrow on refresh, never widen", arguments: StoreBackend.available)
    func scopeNarrowing(backend: StoreBackend) async throws {
        try await withTestServer(backend) { server in
            let browser = server.client()
            let (first, _) = try await OAuthFlow(browser: browser, scope: "openid email offline_access").tokens()
            let narrowed = try await browser.refresh(try #require(first.refreshToken), scope: "openid")
            #expect(narrowed.status == 200)
            let tokens = try narrowed.json(TokenResponse.self)
            #expect(tokens.scope == "openid")
            #expect(JWTParts.payload(tokens.accessToken)["scope"] as? String == "openid")

            // The new refresh token keeps the original grant (RFC 6749 §6).
            let back = try await browser.refresh(try #require(tokens.refreshToken), scope: "openid email")
            #expect(back.status == 200)

            let current = try #require(try back.json(TokenResponse.self).refreshToken)
            let widened = try await browser.refresh(current, scope: "openid profile")
            #expect(widened.status == 400)
            #expect(try widened.json(APIError.self).error == "invalid_scope")
            // The refused request lost nothing: the same refresh token still works, once.
            let retried = try await browser.refresh(current)
            #expect(retried.status == 200)
            #expect(try retried.json(TokenResponse.self).scope == "openid email offline_access")
            #expect(try await browser.refresh(current).status == 400)
        }
    }

    @Test("a refresh token is bound to its client", arguments: StoreBackend.available)
    func boundToClient(backend: StoreBackend) async throws {
        try await withTestServer(backend) { server in
            let browser = server.client()
            let (first, _) = try await OAuthFlow(browser: browser).tokens()
            let other = try await browser.refresh(try #require(first.refreshToken), clientID: Fixtures.secondApp)
            #expect(other.status == 400)
            #expect(try other.json(APIError.self).error == "invalid_grant")

            // The token leaked, so the session stays revoked; its rightful client is told why
            // instead of reading "already used".
            let rightful = try await browser.refresh(try #require(first.refreshToken))
            #expect(rightful.status == 400)
            let error = try rightful.json(APIError.self)
            #expect(error.error == "invalid_grant")
            #expect(error.errorDescription?.contains("presented by another client") == true, "\(error.errorDescription ?? "")")
            #expect(try await browser.introspect(try #require(first.refreshToken)).json(IntrospectionResponse.self).active == false)
        }
    }

    @Test("a database migrated to version 5 records why a family was revoked; reuse says 'already used'", arguments: StoreBackend.available)
    func revocationReasons(backend: StoreBackend) async throws {
        try await withTestServer(backend) { server in
            let browser = server.client()
            let (first, _) = try await OAuthFlow(browser: browser).tokens()
            let refreshToken = try #require(first.refreshToken)
            #expect(try await browser.refresh(refreshToken).status == 200)
            let reused = try await browser.refresh(refreshToken)
            #expect(try reused.json(APIError.self).errorDescription?.contains("already used") == true)
            let record = try #require(try await server.store.refreshToken(digest: SecretDigest.of(refreshToken)))
            #expect(try await server.store.refreshFamilyRevocationReason(record.familyID) == .reused)
        }
    }

    @Test("unknown and expired refresh tokens are invalid_grant", arguments: StoreBackend.available)
    func unknownAndExpired(backend: StoreBackend) async throws {
        try await withTestServer(backend) { server in
            let browser = server.client()
            #expect(try await browser.refresh(SecureRandom.token()).json(APIError.self).error == "invalid_grant")
            let (first, _) = try await OAuthFlow(browser: browser).tokens()
            server.clock.advance(by: 31 * 24 * 3600)
            let expired = try await browser.refresh(try #require(first.refreshToken))
            #expect(expired.status == 400)
            #expect(try expired.json(APIError.self).error == "invalid_grant")
        }
    }
}

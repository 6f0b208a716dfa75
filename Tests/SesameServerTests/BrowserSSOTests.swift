import SesameTesting
import Foundation
import StoreTesting
import SesameProtocol
import Testing
@testable import SesameServer

@Suite("Browser SSO session")
struct BrowserSSOTests {
    @Test("a second client signs in without the password; same sub and sid", arguments: StoreBackend.available)
    func secondClientSSO(backend: StoreBackend) async throws {
        try await withTestServer(backend) { server in
            let browser = server.client()
            let (first, _) = try await OAuthFlow(browser: browser).tokens()

            let second = OAuthFlow(
                browser: browser, clientID: Fixtures.secondApp, redirectURI: Fixtures.secondRedirect,
                scope: "openid")
            let attempt = OAuthFlow.Attempt()
            let redirect = try await second.authorize(attempt)
            #expect(redirect.status == 303)
            #expect(redirect.locationQuery["state"] == attempt.state)
            let code = try #require(redirect.locationQuery["code"])
            let response = try await second.exchange(code, attempt: attempt)
            #expect(response.status == 200)
            let tokens = try response.json(TokenResponse.self)

            let a = try await server.keyRing.verify(try #require(first.idToken), as: IDTokenClaims.self)
            let b = try await server.keyRing.verify(try #require(tokens.idToken), as: IDTokenClaims.self)
            #expect(a.sub == b.sub)
            #expect(a.sid == b.sid)
            #expect(a.authTime == b.authTime)
            #expect(b.aud == Fixtures.secondApp)
        }
    }

    @Test("session cookie: HttpOnly, SameSite=Lax, not Secure on loopback", arguments: StoreBackend.available)
    func sessionCookieAttributes(backend: StoreBackend) async throws {
        try await withTestServer(backend) { server in
            let browser = server.client()
            let flow = OAuthFlow(browser: browser)
            let page = try await flow.authorize(.init())
            let redirect = try await flow.submitLogin(page: page)
            let cookie = try #require(redirect.setCookies.first { $0.hasPrefix("sesame_session=") })
            #expect(cookie.contains("HttpOnly"))
            #expect(cookie.contains("SameSite=Lax"))
            #expect(cookie.contains("Path=/"))
            #expect(!cookie.contains("Secure"))
        }
    }

    @Test("prompt=none uses the session; prompt=login and max_age force the form", arguments: StoreBackend.available)
    func promptAndMaxAge(backend: StoreBackend) async throws {
        try await withTestServer(backend) { server in
            let browser = server.client()
            let flow = OAuthFlow(browser: browser)
            _ = try await flow.signIn(.init())

            let none = try await flow.authorize(.init(), extra: ["prompt": "none"])
            #expect(none.status == 303)
            #expect(none.locationQuery["code"] != nil)

            let login = try await flow.authorize(.init(), extra: ["prompt": "login"])
            #expect(login.status == 200)
            #expect(HTMLForm(html: login.text).fields["password"] != nil)

            let zero = try await flow.authorize(.init(), extra: ["max_age": "0"])
            #expect(zero.status == 200)

            server.clock.advance(by: 120)
            let old = try await flow.authorize(.init(), extra: ["max_age": "60"])
            #expect(old.status == 200)
            let fresh = try await flow.authorize(.init(), extra: ["max_age": "3600"])
            #expect(fresh.status == 303)
            let noneTooOld = try await flow.authorize(.init(), extra: ["prompt": "none", "max_age": "60"])
            #expect(noneTooOld.locationQuery["error"] == "login_required")
        }
    }

    @Test("forced re-login yields a newer auth_time", arguments: StoreBackend.available)
    func reauthentication(backend: StoreBackend) async throws {
        try await withTestServer(backend) { server in
            let browser = server.client()
            let flow = OAuthFlow(browser: browser)
            let (first, _) = try await flow.tokens()
            server.clock.advance(by: 300)
            let (second, _) = try await flow.tokens(extra: ["prompt": "login"])
            let a = try await server.keyRing.verify(try #require(first.idToken), as: IDTokenClaims.self)
            let b = try await server.keyRing.verify(try #require(second.idToken), as: IDTokenClaims.self)
            #expect(b.authTime >= a.authTime + 300)
        }
    }

    @Test("an expired browser session is not used", arguments: StoreBackend.available)
    func sessionExpiry(backend: StoreBackend) async throws {
        try await withTestServer(backend) { server in
            let flow = OAuthFlow(browser: server.client())
            _ = try await flow.signIn(.init())
            server.clock.advance(by: 13 * 3600)
            let response = try await flow.authorize(.init(), extra: ["prompt": "none"])
            #expect(response.locationQuery["error"] == "login_required")
        }
    }
}

import SesameTesting
import Foundation
import SesameProtocol
import Testing
@testable import SesameServer

/// OIDC Core §3.1.2.1 `id_token_hint` at `/authorize`: an ID token issued here to the
/// requesting client (expired allowed) about the End-User's current session.
@Suite("id_token_hint at the authorization endpoint")
struct IDTokenHintTests {
    /// Signs `username` in with the native app in a fresh browser; returns the browser and ID token.
    static func signedIn(
        _ server: TestServer, username: String = Fixtures.username, clientID: String = Fixtures.nativeApp,
        redirectURI: String = Fixtures.nativeRedirect
    ) async throws -> (HTTPTestClient, String) {
        let browser = server.client()
        let flow = OAuthFlow(browser: browser, clientID: clientID, redirectURI: redirectURI)
        let attempt = OAuthFlow.Attempt()
        let page = try await flow.authorize(attempt)
        let redirect = try await flow.submitLogin(page: page, username: username)
        try #require(redirect.status == 303, "\(redirect.text)")
        let response = try await flow.exchange(try #require(redirect.locationQuery["code"]), attempt: attempt)
        let tokens = try response.json(TokenResponse.self)
        return (browser, try #require(tokens.idToken))
    }

    @Test("a hint naming the signed-in user with prompt=none: a code, as without the hint")
    func matchingHint() async throws {
        try await withTestServer { server in
            let (browser, idToken) = try await Self.signedIn(server)
            let attempt = OAuthFlow.Attempt()
            let flow = OAuthFlow(browser: browser)
            let response = try await flow.authorize(attempt, extra: ["prompt": "none", "id_token_hint": idToken])
            #expect(response.status == 303)
            let code = try #require(response.locationQuery["code"], "\(response.location ?? "")")
            #expect(response.locationQuery["state"] == attempt.state)
            let tokens = try await flow.exchange(code, attempt: attempt).json(TokenResponse.self)
            let claims = try await server.keyRing.verify(try #require(tokens.idToken), as: IDTokenClaims.self)
            let hinted = try await server.keyRing.verify(idToken, as: IDTokenClaims.self)
            #expect(claims.sub == hinted.sub)
        }
    }

    @Test("a hint naming another user: login_required with prompt=none, else the login form (nothing pre-filled)")
    func otherUsersHint() async throws {
        try await withTestServer { server in
            _ = try await server.addMFATestUser("bob")
            let (_, bobsToken) = try await Self.signedIn(server, username: "bob")
            let (browser, _) = try await Self.signedIn(server)
            let flow = OAuthFlow(browser: browser)
            let attempt = OAuthFlow.Attempt()
            let silent = try await flow.authorize(attempt, extra: ["prompt": "none", "id_token_hint": bobsToken])
            #expect(silent.status == 303)
            #expect(silent.locationQuery["error"] == "login_required")
            #expect(silent.locationQuery["code"] == nil)
            #expect(silent.locationQuery["state"] == attempt.state)
            #expect(silent.locationQuery["iss"] == server.issuer)

            let page = try await flow.authorize(.init(), extra: ["id_token_hint": bobsToken])
            #expect(page.status == 200)
            let fields = HTMLForm(html: page.text).fields
            #expect(fields["username"] == "")
            #expect(fields["id_token_hint"] == nil)

            // Alice's own session is untouched: without the hint SSO still works.
            let sso = try await flow.authorize(.init(), extra: ["prompt": "none"])
            #expect(sso.locationQuery["code"] != nil)
        }
    }

    @Test("a hint issued to another client is invalid_request, sent to the redirect URI with state and iss")
    func otherClientsHint() async throws {
        try await withTestServer { server in
            let (browser, secondToken) = try await Self.signedIn(
                server, clientID: Fixtures.secondApp, redirectURI: Fixtures.secondRedirect)
            let attempt = OAuthFlow.Attempt()
            let response = try await OAuthFlow(browser: browser).authorize(
                attempt, extra: ["prompt": "none", "id_token_hint": secondToken])
            #expect(response.status == 303)
            #expect(response.location?.hasPrefix(Fixtures.nativeRedirect + "?") == true)
            #expect(response.locationQuery["error"] == "invalid_request")
            #expect(response.locationQuery["error_description"]?.contains("another client") == true)
            #expect(response.locationQuery["state"] == attempt.state)
            #expect(response.locationQuery["iss"] == server.issuer)
            #expect(response.locationQuery["code"] == nil)
        }
    }

    @Test(
        "a hint that is not an ID token issued here is invalid_request",
        arguments: ["garbage", "a.b.c", "eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0."])
    func garbageHint(hint: String) async throws {
        try await withTestServer { server in
            let (browser, _) = try await Self.signedIn(server)
            let attempt = OAuthFlow.Attempt()
            for extra in [["id_token_hint": hint], ["id_token_hint": hint, "prompt": "none"]] {
                let response = try await OAuthFlow(browser: browser).authorize(attempt, extra: extra)
                #expect(response.status == 303)
                #expect(response.locationQuery["error"] == "invalid_request")
                #expect(response.locationQuery["state"] == attempt.state)
                #expect(response.locationQuery["iss"] == server.issuer)
            }
        }
    }

    @Test("an access token or a tampered ID token is not a valid hint")
    func notAnIDToken() async throws {
        try await withTestServer { server in
            let browser = server.client()
            let (tokens, _) = try await OAuthFlow(browser: browser).tokens()
            var tampered = try #require(tokens.idToken)
            tampered.removeLast(2)
            tampered += tampered.hasSuffix("A") ? "BB" : "AA"
            for hint in [tokens.accessToken, tampered] {
                let response = try await OAuthFlow(browser: browser).authorize(
                    .init(), extra: ["prompt": "none", "id_token_hint": hint])
                #expect(response.locationQuery["error"] == "invalid_request")
            }
        }
    }

    @Test("an expired but genuine hint still works (it is a hint, not a credential)")
    func expiredHint() async throws {
        try await withTestServer { server in
            let (browser, idToken) = try await Self.signedIn(server)
            let claims = try await server.keyRing.verify(idToken, as: IDTokenClaims.self)
            server.clock.advance(by: TimeInterval(claims.exp - claims.iat + 60))
            #expect(Int(server.clock.now().timeIntervalSince1970) > claims.exp)
            let response = try await OAuthFlow(browser: browser).authorize(
                .init(), extra: ["prompt": "none", "id_token_hint": idToken])
            #expect(response.status == 303)
            #expect(response.locationQuery["code"] != nil, "\(response.location ?? "")")
        }
    }

    @Test("a genuine hint without any browser session: login_required with prompt=none, else the login form")
    func hintWithoutSession() async throws {
        try await withTestServer { server in
            let (_, idToken) = try await Self.signedIn(server)
            let flow = OAuthFlow(browser: server.client())
            let silent = try await flow.authorize(.init(), extra: ["prompt": "none", "id_token_hint": idToken])
            #expect(silent.locationQuery["error"] == "login_required")
            let page = try await flow.authorize(.init(), extra: ["id_token_hint": idToken])
            #expect(page.status == 200)
            #expect(page.text.contains(#"name="password""#))
        }
    }
}

import Foundation
import SesameProtocol
import Testing

@Suite("RP-initiated logout")
struct LogoutTests {
    @Test("registered post_logout_redirect_uri: 303 with state, session ended, cookie cleared")
    func registeredRedirect() async throws {
        try await withTestServer { server in
            let browser = server.client()
            let flow = OAuthFlow(browser: browser)
            let (tokens, _) = try await flow.tokens()
            #expect(browser.cookie("sesame_session") != nil)
            let sessionCookie = try #require(browser.cookie("sesame_session"))

            let response = try await browser.get(
                "/logout",
                query: [
                    "id_token_hint": try #require(tokens.idToken),
                    "post_logout_redirect_uri": Fixtures.nativePostLogout, "state": "xyz",
                ])
            #expect(response.status == 303)
            #expect(response.location == Fixtures.nativePostLogout + "?state=xyz")
            #expect(response.setCookies.contains { $0.hasPrefix("sesame_session=;") && $0.contains("Max-Age=0") })
            #expect(browser.cookie("sesame_session") == nil)

            // The old cookie no longer names a session.
            browser.setCookie("sesame_session", sessionCookie)
            let after = try await flow.authorize(.init(), extra: ["prompt": "none"])
            #expect(after.locationQuery["error"] == "login_required")
        }
    }

    @Test("unregistered post_logout_redirect_uri: no redirect, signed-out page")
    func unregisteredRedirect() async throws {
        try await withTestServer { server in
            let browser = server.client()
            let flow = OAuthFlow(browser: browser)
            let (tokens, _) = try await flow.tokens()
            let response = try await browser.get(
                "/logout",
                query: [
                    "id_token_hint": try #require(tokens.idToken),
                    "post_logout_redirect_uri": "https://evil.example.com/",
                ])
            #expect(response.status == 200)
            #expect(response.location == nil)
            #expect(response.text.contains("signed out"))
            #expect(response.header("X-Frame-Options") == "DENY")
            let after = try await flow.authorize(.init(), extra: ["prompt": "none"])
            #expect(after.locationQuery["error"] == "login_required")
        }
    }

    @Test("logout without parameters shows the signed-out page; POST works too")
    func plainLogout() async throws {
        try await withTestServer { server in
            let browser = server.client()
            _ = try await OAuthFlow(browser: browser).signIn(.init())
            let response = try await browser.postForm("/logout", [:])
            #expect(response.status == 200)
            #expect(response.text.contains("signed out"))
            #expect(browser.cookie("sesame_session") == nil)
        }
    }

    @Test("a forged id_token_hint or mismatched client_id is refused")
    func badHint() async throws {
        try await withTestServer { server in
            let browser = server.client()
            let (tokens, _) = try await OAuthFlow(browser: browser).tokens()
            let forged = try await browser.get("/logout", query: ["id_token_hint": "a.b.c"])
            #expect(forged.status == 400)
            let mismatch = try await browser.get(
                "/logout",
                query: [
                    "id_token_hint": try #require(tokens.idToken), "client_id": Fixtures.secondApp,
                    "post_logout_redirect_uri": Fixtures.nativePostLogout,
                ])
            #expect(mismatch.status == 400)
            #expect(mismatch.location == nil)
        }
    }
}

import SesameTesting
import Foundation
import SesameProtocol
import Testing
@testable import SesameServer

/// RP-Initiated Logout 1.0 §2: the OP must ask before logging out when the `id_token_hint` does
/// not belong to the current session and End-User; `logout_hint` names the End-User logging out.
@Suite("logout: id_token_hint and logout_hint must name the current session")
struct LogoutHintTests {
    static func isConfirmation(_ page: TestResponse) -> Bool {
        page.status == 200 && HTMLForm(html: page.text).fields[EndSessionEndpoint.confirmField] != nil
    }

    @Test("another user's id_token_hint: asked first, session kept; confirming redirects to the hint's client")
    func otherUsersHint() async throws {
        try await withTestServer { server in
            _ = try await server.addMFATestUser("bob")
            let (_, bobsToken) = try await IDTokenHintTests.signedIn(server, username: "bob")
            let (browser, _) = try await IDTokenHintTests.signedIn(server)
            let page = try await browser.get(
                "/logout",
                query: ["id_token_hint": bobsToken, "post_logout_redirect_uri": Fixtures.nativePostLogout, "state": "s1"])
            #expect(Self.isConfirmation(page), "\(page.status) \(page.text)")
            #expect(try await LogoutTests.sessionAlive(browser))

            let form = HTMLForm(html: page.text)
            #expect(form.fields["client_id"] == Fixtures.nativeApp)
            let confirmed = try await browser.postForm("/logout", form.fields)
            #expect(confirmed.status == 303)
            #expect(confirmed.location == Fixtures.nativePostLogout + "?state=s1")
            #expect(try await !LogoutTests.sessionAlive(browser))
        }
    }

    @Test("an ID token from an earlier session of the same user: asked first")
    func earlierSessionsHint() async throws {
        try await withTestServer { server in
            let (browser, oldToken) = try await IDTokenHintTests.signedIn(server)
            // A new sign-in in the same browser replaces the session (a new sid).
            let flow = OAuthFlow(browser: browser)
            _ = try await flow.submitLogin(page: try await flow.authorize(.init(), extra: ["prompt": "login"]))
            let page = try await browser.get("/logout", query: ["id_token_hint": oldToken])
            #expect(Self.isConfirmation(page))
            #expect(try await LogoutTests.sessionAlive(browser))
        }
    }

    @Test(
        "a logout_hint naming the session's user (username, email, sub) ends the session without asking",
        arguments: ["alice", "ALICE@example.com", "sub"])
    func matchingLogoutHint(hint: String) async throws {
        try await withTestServer { server in
            let (browser, idToken) = try await IDTokenHintTests.signedIn(server)
            let sub = try #require(JWTParts.payload(idToken)["sub"] as? String)
            let response = try await browser.get(
                "/logout", query: ["id_token_hint": idToken, "logout_hint": hint == "sub" ? sub : hint])
            #expect(!Self.isConfirmation(response))
            #expect(response.text.contains("signed out"))
            #expect(try await !LogoutTests.sessionAlive(browser))
        }
    }

    @Test("a logout_hint naming someone else: asked first, even with a matching id_token_hint")
    func otherLogoutHint() async throws {
        try await withTestServer { server in
            _ = try await server.addMFATestUser("bob")
            let (browser, idToken) = try await IDTokenHintTests.signedIn(server)
            let page = try await browser.get("/logout", query: ["id_token_hint": idToken, "logout_hint": "bob"])
            #expect(Self.isConfirmation(page))
            #expect(try await LogoutTests.sessionAlive(browser))
        }
    }

    @Test("without a session there is nothing to ask: a valid hint redirects at once")
    func noSession() async throws {
        try await withTestServer { server in
            let (_, idToken) = try await IDTokenHintTests.signedIn(server)
            let response = try await server.client().get(
                "/logout", query: ["id_token_hint": idToken, "post_logout_redirect_uri": Fixtures.nativePostLogout])
            #expect(response.status == 303)
            #expect(response.location == Fixtures.nativePostLogout)
        }
    }
}

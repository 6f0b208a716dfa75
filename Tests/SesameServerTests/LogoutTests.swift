import SesameTesting
import Foundation
import StoreTesting
import SesameProtocol
import Testing
@testable import SesameServer

@Suite("RP-initiated logout")
struct LogoutTests {
    static let english = StringTables.all["en"] ?? [:]
    /// `Fixtures.nativePostLogout` as a CSP scheme-source.
    static let postLogoutSource = "com.example.app:"

    /// Whether the browser's SSO session is still alive: `prompt=none` gets a code.
    static func sessionAlive(_ browser: HTTPTestClient) async throws -> Bool {
        let response = try await OAuthFlow(browser: browser).authorize(.init(), extra: ["prompt": "none"])
        return response.locationQuery["code"] != nil
    }

    @Test("registered post_logout_redirect_uri: 303 with state, session ended, cookie cleared", arguments: StoreBackend.available)
    func registeredRedirect(backend: StoreBackend) async throws {
        try await withTestServer(backend) { server in
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

    @Test("an expired id_token_hint still ends the session without confirmation", arguments: StoreBackend.available)
    func expiredHint(backend: StoreBackend) async throws {
        try await withTestServer(backend) { server in
            let browser = server.client()
            let (tokens, _) = try await OAuthFlow(browser: browser).tokens()
            server.clock.advance(by: 3600)
            let response = try await browser.get("/logout", query: ["id_token_hint": try #require(tokens.idToken)])
            #expect(response.status == 200)
            #expect(response.text.contains("signed out"))
            #expect(try await !Self.sessionAlive(browser))
        }
    }

    @Test("unregistered post_logout_redirect_uri: no redirect, an error page that says why, session kept", arguments: StoreBackend.available)
    func unregisteredRedirect(backend: StoreBackend) async throws {
        try await withTestServer(backend) { server in
            let browser = server.client()
            let flow = OAuthFlow(browser: browser)
            let (tokens, _) = try await flow.tokens()
            for query in [
                ["id_token_hint": try #require(tokens.idToken), "post_logout_redirect_uri": "https://evil.example.com/"],
                ["client_id": Fixtures.nativeApp, "post_logout_redirect_uri": "https://evil.example.com/"],
                ["client_id": "no-such-client", "post_logout_redirect_uri": Fixtures.nativePostLogout],
                // Registered, but for another client than the hint's.
                [
                    "id_token_hint": try #require(tokens.idToken),
                    "post_logout_redirect_uri": Fixtures.secondRedirect,
                ],
            ] {
                let response = try await browser.get("/logout", query: query)
                #expect(response.status == 400)
                #expect(response.location == nil)
                #expect(response.setCookies.allSatisfy { !$0.hasPrefix("sesame_session=") })
                #expect(response.text.contains(try #require(Self.english["logout.redirect_unregistered"]).htmlEscaped))
                #expect(!response.text.contains(try #require(StringTables.english["signed_out.title"])))
                #expect(response.header("X-Frame-Options") == "DENY")
                #expect(response.header("Content-Security-Policy") == ContentSecurityPolicy.strict.headerValue)
                #expect(try await Self.sessionAlive(browser), "session ended for \(query)")
            }
        }
    }

    @Test("post_logout_redirect_uri without id_token_hint or client_id: error page, session kept", arguments: StoreBackend.available)
    func unidentifiedClient(backend: StoreBackend) async throws {
        try await withTestServer(backend) { server in
            let browser = server.client()
            _ = try await OAuthFlow(browser: browser).signIn(.init())
            for response in [
                try await browser.get("/logout", query: ["post_logout_redirect_uri": Fixtures.nativePostLogout]),
                try await browser.postForm("/logout", ["post_logout_redirect_uri": Fixtures.nativePostLogout]),
            ] {
                #expect(response.status == 400)
                #expect(response.location == nil)
                #expect(response.text.contains(try #require(Self.english["logout.redirect_unidentified"]).htmlEscaped))
            }
            #expect(try await Self.sessionAlive(browser))
        }
    }

    @Test("no id_token_hint: a confirmation page; its POST with the CSRF token ends the session and redirects", arguments: StoreBackend.available)
    func confirmation(backend: StoreBackend) async throws {
        try await withTestServer(backend) { server in
            let browser = server.client()
            _ = try await OAuthFlow(browser: browser).signIn(.init())
            let page = try await browser.get(
                "/logout",
                query: [
                    "client_id": Fixtures.nativeApp, "post_logout_redirect_uri": Fixtures.nativePostLogout,
                    "state": "xyz",
                ])
            #expect(page.status == 200)
            #expect(page.location == nil)
            #expect(page.text.contains(try #require(Self.english["logout.confirm.title"])))
            // The form may end at the validated post_logout_redirect_uri, and nowhere else.
            #expect(
                page.header("Content-Security-Policy")
                    == ContentSecurityPolicy.allowingRedirects(to: [Fixtures.nativePostLogout]).headerValue)
            #expect(page.header("Content-Security-Policy")?.contains("form-action 'self' \(Self.postLogoutSource)") == true)
            #expect(page.header("X-Frame-Options") == "DENY")
            #expect(page.header("Cache-Control") == "no-store")
            #expect(!page.text.contains("<script"))
            #expect(page.setCookies.allSatisfy { !$0.hasPrefix("sesame_session=") })
            #expect(try await Self.sessionAlive(browser))

            let form = HTMLForm(html: page.text)
            #expect(form.action == "/logout")
            #expect(form.fields["csrf_token"]?.count == 43 && form.fields["csrf_token"] != browser.cookie("sesame_csrf"), "the CSRF field is a MAC of the pre-session cookie, not a copy")
            #expect(form.fields["state"] == "xyz")
            #expect(form.fields["post_logout_redirect_uri"] == Fixtures.nativePostLogout)
            let confirmed = try await browser.postForm("/logout", form.fields)
            #expect(confirmed.status == 303)
            #expect(confirmed.location == Fixtures.nativePostLogout + "?state=xyz")
            #expect(confirmed.setCookies.contains { $0.hasPrefix("sesame_session=;") && $0.contains("Max-Age=0") })
            #expect(try await !Self.sessionAlive(browser))
        }
    }

    @Test("logout without parameters (GET or POST) asks first; the confirmation shows the signed-out page", arguments: StoreBackend.available)
    func plainLogout(backend: StoreBackend) async throws {
        try await withTestServer(backend) { server in
            let browser = server.client()
            _ = try await OAuthFlow(browser: browser).signIn(.init())
            let viaGet = try await browser.get("/logout")
            #expect(viaGet.status == 200)
            #expect(!viaGet.text.contains(try #require(StringTables.english["signed_out.title"])))
            let page = try await browser.postForm("/logout", [:])
            #expect(page.status == 200)
            #expect(page.text.contains(try #require(Self.english["logout.confirm.submit"])))
            #expect(browser.cookie("sesame_session") != nil)
            #expect(try await Self.sessionAlive(browser))

            let response = try await browser.postForm("/logout", HTMLForm(html: page.text).fields)
            #expect(response.status == 200)
            #expect(response.text.contains("signed out"))
            #expect(browser.cookie("sesame_session") == nil)
        }
    }

    @Test("a confirmation POST without a matching CSRF cookie and field is refused and ends nothing", arguments: StoreBackend.available)
    func confirmationNeedsCSRF(backend: StoreBackend) async throws {
        try await withTestServer(backend) { server in
            let browser = server.client()
            _ = try await OAuthFlow(browser: browser).signIn(.init())
            let page = try await browser.get("/logout")
            let fields = HTMLForm(html: page.text).fields
            #expect(fields["confirm"] != nil)

            var withoutField = fields
            withoutField["csrf_token"] = nil
            var wrongField = fields
            wrongField["csrf_token"] = SecureRandom.token()
            for form in [withoutField, wrongField] {
                let refused = try await browser.postForm("/logout", form)
                #expect(refused.status == 403)
                #expect(refused.setCookies.allSatisfy { !$0.hasPrefix("sesame_session=") })
            }
            // A forged cross-site POST carries no CSRF cookie.
            let csrf = browser.cookie("sesame_csrf")
            browser.setCookie("sesame_csrf", nil)
            let forged = try await browser.postForm("/logout", fields)
            #expect(forged.status == 403)
            browser.setCookie("sesame_csrf", csrf)
            #expect(try await Self.sessionAlive(browser))
        }
    }

    @Test("the confirmation page follows ui_locales", arguments: StoreBackend.available)
    func localizedConfirmation(backend: StoreBackend) async throws {
        try await withTestServer(backend) { server in
            let browser = server.client()
            let page = try await browser.get("/logout", query: ["ui_locales": "de"])
            #expect(page.status == 200)
            #expect(page.text.contains(#"lang="de""#))
            #expect(page.text.contains(try #require(StringTables.all["de"]?["logout.confirm.submit"])))
            #expect(HTMLForm(html: page.text).fields["ui_locales"] == "de")
            let arabic = try await browser.get("/logout", query: ["ui_locales": "ar"])
            #expect(arabic.text.contains(#"dir="rtl""#))
        }
    }

    @Test("a forged id_token_hint or mismatched client_id is refused", arguments: StoreBackend.available)
    func badHint(backend: StoreBackend) async throws {
        try await withTestServer(backend) { server in
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
            #expect(try await Self.sessionAlive(browser))
        }
    }
}

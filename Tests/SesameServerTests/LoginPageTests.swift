import SesameTesting
import Foundation
import SesameProtocol
import Testing
@testable import SesameServer

@Suite("Hosted login page")
struct LoginPageTests {
    static let requiredHeaders = [
        "X-Frame-Options": "DENY", "Referrer-Policy": "no-referrer",
        "X-Content-Type-Options": "nosniff", "Cache-Control": "no-store",
    ]

    @Test("security headers: CSP frame-ancestors none, only this origin's passkey script, X-Frame-Options; no external resources")
    func securityHeaders() async throws {
        try await withTestServer { server in
            let page = try await OAuthFlow(browser: server.client()).authorize(.init())
            #expect(page.status == 200)
            let csp = try #require(page.header("Content-Security-Policy"))
            #expect(csp.contains("frame-ancestors 'none'"))
            #expect(csp.contains("default-src 'none'"))
            // CSP3 §6.4.1: the POST's redirect to the client must be allowed, and only it.
            let target = try #require(ContentSecurityPolicy.sourceExpression(for: Fixtures.nativeRedirect))
            #expect(csp.contains("form-action 'self' \(target);"))
            // The passkey script (docs/passkeys.md): this origin's file, fetching from this origin only.
            #expect(csp.contains("script-src 'self';") && csp.contains("connect-src 'self';"))
            #expect(!csp.contains("unsafe-eval") && !csp.contains("script-src 'self' 'unsafe-inline'"))
            for (name, value) in Self.requiredHeaders { #expect(page.header(name) == value, "\(name)") }
            #expect(page.text.components(separatedBy: "<script").count == 2, "one script element")
            #expect(page.text.contains(#"<script src="/assets/passkey.js"></script>"#))
            #expect(!page.text.contains("src=\"http"))
            #expect(!page.text.contains("href=\"http"))

            let errorPage = try await server.client().get("/authorize", query: ["client_id": "nobody"])
            #expect(errorPage.header("Content-Security-Policy") == ContentSecurityPolicy.strict.headerValue)
            #expect(errorPage.header("X-Frame-Options") == "DENY")
        }
    }

    @Test("CSRF cookie is HttpOnly, SameSite=Strict, not Secure on loopback")
    func csrfCookieAttributes() async throws {
        try await withTestServer { server in
            let page = try await OAuthFlow(browser: server.client()).authorize(.init())
            let cookie = try #require(page.setCookies.first { $0.hasPrefix("sesame_csrf=") })
            #expect(cookie.contains("HttpOnly"))
            #expect(cookie.contains("SameSite=Strict"))
            #expect(!cookie.contains("Secure"))
        }
    }

    @Test("a login POST without the matching CSRF cookie is refused and issues no code")
    func csrfFailure() async throws {
        try await withTestServer { server in
            let browser = server.client()
            let flow = OAuthFlow(browser: browser)
            let page = try await flow.authorize(.init())

            browser.setCookie("sesame_csrf", nil)
            let noCookie = try await flow.submitLogin(page: page)
            #expect(noCookie.status == 403)
            #expect(noCookie.location == nil)
            #expect(browser.cookie("sesame_session") == nil)

            browser.setCookie("sesame_csrf", SecureRandom.token())
            let wrongCookie = try await flow.submitLogin(page: page)
            #expect(wrongCookie.status == 403)
            #expect(wrongCookie.location == nil)
        }
    }

    @Test("wrong password or unknown user shows the form again with an error and no session")
    func wrongPassword() async throws {
        try await withTestServer { server in
            let browser = server.client()
            let flow = OAuthFlow(browser: browser)
            let page = try await flow.authorize(.init())
            let wrong = try await flow.submitLogin(page: page, password: "not the password")
            #expect(wrong.status == 401)
            #expect(wrong.location == nil)
            #expect(wrong.text.contains("incorrect"))
            #expect(HTMLForm(html: wrong.text).fields["username"] == Fixtures.username)
            #expect(browser.cookie("sesame_session") == nil)

            let unknown = try await flow.submitLogin(page: page, username: "mallory")
            #expect(unknown.status == 401)
            #expect(unknown.location == nil)

            // The re-rendered form still works.
            let retry = try await flow.submitLogin(page: wrong)
            #expect(retry.status == 303)
            #expect(retry.locationQuery["code"] != nil)
        }
    }

    @Test("fields added to the form cannot redirect the code: the request held on the server is the one answered")
    func tamperedForm() async throws {
        try await withTestServer { server in
            let browser = server.client()
            let attempt = OAuthFlow.Attempt()
            let page = try await OAuthFlow(browser: browser).authorize(attempt)
            var fields = HTMLForm(html: page.text).fields
            fields["username"] = Fixtures.username
            fields["password"] = Fixtures.password
            fields["redirect_uri"] = "https://evil.example.com/cb"
            fields["state"] = "forged"
            let response = try await browser.postForm("/login", fields)
            #expect(response.status == 303)
            #expect(response.location?.hasPrefix(Fixtures.nativeRedirect + "?") == true, "\(response.location ?? "")")
            #expect(response.locationQuery["state"] == attempt.state)
        }
    }

    @Test("login_hint prefills the username; sign-up and reset pages are forms with CSRF tokens")
    func hintAndAccountPages() async throws {
        try await withTestServer { server in
            let browser = server.client()
            let page = try await OAuthFlow(browser: browser).authorize(.init(), extra: ["login_hint": "bob@example.com"])
            #expect(HTMLForm(html: page.text).fields["username"] == "bob@example.com")
            let signup = try await browser.get("/signup")
            #expect(signup.status == 200)
            #expect(HTMLForm(html: signup.text).action == "/signup")
            #expect(HTMLForm(html: signup.text).fields["csrf_token"]?.count == 43 && HTMLForm(html: signup.text).fields["csrf_token"] != browser.cookie("sesame_csrf"), "the CSRF field is a MAC of the pre-session cookie, not a copy")
            let reset = try await browser.get("/password-reset")
            #expect(reset.status == 200)
            #expect(HTMLForm(html: reset.text).action == "/password-reset")
            // A POST without the CSRF pair is refused and changes nothing.
            let forged = try await server.client().postForm("/signup", ["email": "x@example.com", "password": "long enough password"])
            #expect(forged.status == 403)
            #expect(try await server.store.user(login: "x@example.com") == nil)
        }
    }
}

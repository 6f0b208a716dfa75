import SesameTesting
import Foundation
import SesameProtocol
import Testing
@testable import SesameServer

/// The hosted sign-up, email confirmation and password reset pages over HTTP: the same rules as
/// the JSON API, the authorization request carried through, no account enumeration.
@Suite("Hosted account pages")
struct HostedAccountPagesTests {
    /// Opens `path` with the login page's own link, so the CSRF cookie and carried request are set.
    static func open(_ path: String, flow: OAuthFlow, attempt: OAuthFlow.Attempt) async throws -> TestResponse {
        let login = try await flow.authorize(attempt)
        let start = try #require(login.text.range(of: "href=\"\(path)?"), "the login page links to \(path)")
        let link = login.text[start.upperBound...].prefix { $0 != "\"" }
        return try await flow.browser.get(path + "?" + HTMLForm.decodeEntities(String(link)))
    }

    /// Submits the first form of `page` with `values` over its fields.
    static func submit(_ page: TestResponse, _ values: [String: String], browser: HTTPTestClient) async throws -> TestResponse {
        let form = HTMLForm(html: page.text)
        return try await browser.postForm(form.action, form.fields.merging(values) { $1 })
    }

    @Test("sign-up from the login page: weak password refused in the form; the code confirms and the client gets a code")
    func signUpEndsAtClient() async throws {
        try await withAccountAPI { api in
            let flow = OAuthFlow(browser: api.browser)
            let attempt = OAuthFlow.Attempt()
            let page = try await Self.open("/signup", flow: flow, attempt: attempt)
            #expect(page.status == 200)
            #expect(HTMLForm(html: page.text).fields["authorization_ref"] != nil, "the held request's reference travels along")
            #expect(HTMLForm(html: page.text).fields["state"] == nil, "never its parameters")

            let weak = try await Self.submit(page, ["email": "zoe@example.com", "password": "short"], browser: api.browser)
            #expect(weak.status == 400)
            #expect(weak.text.contains("aria-invalid=\"true\""))
            #expect(HTMLForm(html: weak.text).fields["email"] == "zoe@example.com")
            #expect(try await api.server.store.user(login: "zoe@example.com") == nil)

            let codePage = try await Self.submit(
                weak, ["email": "zoe@example.com", "password": "zoe's long passphrase"], browser: api.browser)
            #expect(codePage.status == 200)
            #expect(HTMLForm(html: codePage.text).action == "/verify-email")
            let wrong = try await Self.submit(codePage, ["code": "12345"], browser: api.browser)
            #expect(wrong.status == 400)
            let code = try await api.latestCode(to: "zoe@example.com", purpose: "email_verification")
            let redirect = try await Self.submit(codePage, ["code": code], browser: api.browser)
            #expect(redirect.status == 303)
            #expect(redirect.location?.hasPrefix(Fixtures.nativeRedirect + "?") == true)
            #expect(redirect.locationQuery["state"] == attempt.state)
            let tokens = try await flow.exchange(try #require(redirect.locationQuery["code"]), attempt: attempt)
            #expect(tokens.status == 200)
            #expect(try await api.server.store.user(login: "zoe@example.com")?.emailVerified == true)
        }
    }

    @Test("an address already in use is refused with its field message and no second account")
    func takenAddress() async throws {
        try await withAccountAPI { api in
            let page = try await api.browser.get("/signup")
            #expect(page.text.contains("At least \(PasswordPolicy().minimumLength) characters."), "the hint states the policy")
            let taken = try await Self.submit(page, ["email": Fixtures.email, "password": "another long passphrase"], browser: api.browser)
            #expect(taken.status == 409)
            #expect(taken.text.contains("aria-invalid=\"true\""))
        }
    }

    @Test("password reset: the same answer for unknown addresses; a code sets the password and ends sessions")
    func passwordReset() async throws {
        try await withAccountAPI { api in
            let page = try await api.browser.get("/password-reset")
            let unknown = try await Self.submit(page, ["email": "nobody@example.com"], browser: api.browser)
            let known = try await Self.submit(page, ["email": Fixtures.email], browser: api.browser)
            #expect(unknown.status == known.status)
            #expect(
                unknown.text.replacingOccurrences(of: "nobody@example.com", with: "X")
                    == known.text.replacingOccurrences(of: Fixtures.email, with: "X"))
            #expect(try await api.messages(to: "nobody@example.com").isEmpty)

            let code = try await api.latestCode(to: Fixtures.email, purpose: "password_reset")
            let weak = try await Self.submit(known, ["code": code, "new_password": "short"], browser: api.browser)
            #expect(weak.status == 400)
            let done = try await Self.submit(known, ["code": code, "new_password": "a fresh hosted passphrase"], browser: api.browser)
            #expect(done.status == 200, "the weak attempt did not use the code up")
            #expect(done.setCookies.contains { $0.hasPrefix("sesame_session=;") || $0.hasPrefix("sesame_session=") })
            #expect(try await api.signIn(Fixtures.username, "a fresh hosted passphrase") != nil)
        }
    }
}

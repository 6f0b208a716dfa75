import SesameTesting
import Foundation
import SesameProtocol
import Testing
@testable import SesameServer

/// The hosted pages in the user's locale: `<html lang>` is the resolved locale,
/// `dir="rtl"` for Arabic, texts from that locale's table; `ui_locales` beats `Accept-Language`.
@Suite("Localized hosted login page", .sharedTestServer)
struct LocalizedLoginPageTests {
    static func text(_ table: String, _ key: String) throws -> String {
        try #require(StringTables.all[table]?[key], "\(table) lacks \(key)").htmlEscaped
    }

    static func htmlOpenTag(_ tag: String) -> String {
        #"<html lang="\#(tag)" dir="\#(tag == "ar" ? "rtl" : "ltr")">"#
    }

    @Test("the login page is rendered in each locale", arguments: SpecLocales.tags)
    func loginPage(tag: String) async throws {
        let server = try SharedTestServer.server()
        let flow = OAuthFlow(browser: server.client())
        let page = try await flow.browser.get(
            "/authorize", query: flow.parameters(.init()), headers: ["Accept-Language": tag])
        #expect(page.status == 200)
        #expect(page.text.contains(Self.htmlOpenTag(tag)))
        #expect(page.text.contains("<title>\(try Self.text(tag, "login.title"))</title>"))
        #expect(page.text.contains(#"<button type="submit">\#(try Self.text(tag, "login.submit"))</button>"#))
        let heading = try Self.text(tag, "login.heading").replacingOccurrences(of: "{client}", with: "<bdi>Native App</bdi>")
        #expect(page.text.contains("<h1>\(heading)</h1>"))
        #expect(page.text.contains(try Self.text(tag, "login.forgot_password")))
        // Only the markup's direction is checked: random state and CSRF values may spell "rtl".
        if tag == "ar" { #expect(page.text.contains(#"dir="rtl""#)) } else { #expect(!page.text.contains(#"dir="rtl""#)) }
    }

    @Test("ui_locales on /authorize beats Accept-Language, also after a failed sign-in")
    func uiLocalesWins() async throws {
        let server = try SharedTestServer.server()
        let browser = server.client()
        let flow = OAuthFlow(browser: browser)
        let page = try await browser.get(
            "/authorize", query: flow.parameters(.init(), extra: ["ui_locales": "fr-CA de"]),
            headers: ["Accept-Language": "de"])
        #expect(page.status == 200)
        #expect(page.text.contains(Self.htmlOpenTag("fr")))
        #expect(page.text.contains(try Self.text("fr", "login.submit")))

        var fields = HTMLForm(html: page.text).fields
        fields["username"] = Fixtures.username
        fields["password"] = "not the password"
        let failed = try await browser.postForm("/login", fields, headers: ["Accept-Language": "de"])
        #expect(failed.status == 401)
        #expect(failed.text.contains(Self.htmlOpenTag("fr")))
        #expect(failed.text.contains(try Self.text("fr", "login.failed")))
    }

    @Test("an unsupported ui_locales entry is skipped for the next one")
    func firstSupportedUILocale() async throws {
        let server = try SharedTestServer.server()
        let flow = OAuthFlow(browser: server.client())
        let page = try await flow.browser.get(
            "/authorize", query: flow.parameters(.init(), extra: ["ui_locales": "tlh zh-TW"]),
            headers: ["Accept-Language": "ko"])
        #expect(page.text.contains(Self.htmlOpenTag("zh-Hant")))
        #expect(page.text.contains(try Self.text("zh-Hant", "login.submit")))
    }

    @Test("an unknown locale gets the English page")
    func unknownLocale() async throws {
        let server = try SharedTestServer.server()
        let flow = OAuthFlow(browser: server.client())
        let page = try await flow.browser.get(
            "/authorize", query: flow.parameters(.init()), headers: ["Accept-Language": "tlh"])
        #expect(page.text.contains(Self.htmlOpenTag("en")))
        #expect(page.text.contains(#"<button type="submit">Sign in</button>"#))
    }

    @Test("the sign-up and password-reset pages follow Accept-Language, right-to-left for Arabic")
    func accountPages() async throws {
        let server = try SharedTestServer.server()
        let signUp = try await server.client().get("/signup", headers: ["Accept-Language": "ar-EG"])
        #expect(signUp.text.contains(Self.htmlOpenTag("ar")))
        #expect(signUp.text.contains(try #require(StringTables.all["ar"]?["signup.intro"]).htmlEscaped))
        let reset = try await server.client().get("/password-reset", headers: ["Accept-Language": "pt-BR"])
        #expect(reset.text.contains(Self.htmlOpenTag("pt")))
        #expect(reset.text.contains(try #require(StringTables.all["pt"]?["password_reset.intro"]).htmlEscaped))
    }

    @Test("discovery advertises the 19 locales as ui_locales_supported")
    func discovery() async throws {
        let server = try SharedTestServer.server()
        let response = try await server.client().get("/.well-known/openid-configuration")
        let metadata = try response.json(ProviderMetadata.self)
        #expect(metadata.uiLocalesSupported == SpecLocales.tags)
    }
}

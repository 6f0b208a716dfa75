import Testing
@testable import SesameServer

/// CSP3 §6.4.1: `form-action` also governs the redirects a form submission causes, so a page
/// whose form ends at a client's registered URI must name that URI's source, and only it.
@Suite("Content-Security-Policy of the hosted pages")
struct ContentSecurityPolicyTests {
    @Test(
        "each registered redirect URI gives the narrowest source expression",
        arguments: [
            ("http://127.0.0.1:53682/callback", "http://127.0.0.1:53682"),
            ("http://127.0.0.1/callback", "http://127.0.0.1"),
            ("https://App.Example.com/cb?x=1", "https://app.example.com"),
            ("https://app.example.com:8443/cb", "https://app.example.com:8443"),
            ("http://[::1]:9000/cb", "http://[::1]:9000"),
            ("com.example.app:/oauth2redirect", "com.example.app:"),
            ("Com.Example.App:/cb", "com.example.app:"),
        ])
    func sourceExpressions(uri: String, expected: String) {
        #expect(ContentSecurityPolicy.sourceExpression(for: uri) == expected)
    }

    @Test(
        "a value that could end the directive or add another is left out",
        arguments: [
            "https://a.example.com;script-src/cb", "https://a.example.com%3Bscript-src/", "not a uri",
            "https:///nohost", "1http://x/", "",
        ])
    func unsafeValuesLeftOut(uri: String) {
        let policy = ContentSecurityPolicy.allowingRedirects(to: [uri])
        #expect(policy == .strict, "\(uri) gave \(policy.headerValue)")
    }

    @Test("the strict policy allows forms to this origin only; every other directive stays")
    func strictPolicy() {
        let value = ContentSecurityPolicy.allowingRedirects(to: ["http://127.0.0.1:4000/cb"]).headerValue
        #expect(value.contains("form-action 'self' http://127.0.0.1:4000;"))
        for directive in ["default-src 'none'", "frame-ancestors 'none'", "base-uri 'none'"] {
            #expect(value.contains(directive))
            #expect(ContentSecurityPolicy.strict.headerValue.contains(directive))
        }
        #expect(ContentSecurityPolicy.strict.headerValue.contains("form-action 'self';"))
        #expect(!value.contains("script-src"))
    }
}

import Foundation
import SesameProtocol
import SesameTesting
import Testing

@testable import SesameServer

/// Issue #28 §7: no hosted page is a dead end. Pages reached without an app's request (a bare
/// `/signup`, `/password-reset`, the passkeys page without a session) link to the server's
/// home page, which links to each of them; with an app's request they lead back to its sign-in.
@Suite("Every hosted page has a way on")
struct WayOnTests {
    static func links(_ html: String) -> [String] {
        html.matches(of: /href="([^"]+)"/).map { String($0.output.1).replacingOccurrences(of: "&amp;", with: "&") }
    }

    @Test("the home page links to sign-up, password reset and passkeys, localized")
    func home() async throws {
        try await withTestServer { server in
            let page = try await server.client().get("/", headers: ["Accept-Language": "fr"])
            #expect(page.status == 200)
            #expect(page.header("Content-Type")?.hasPrefix("text/html") == true)
            #expect(Set(Self.links(page.text)) == ["/signup", "/password-reset", "/account/passkeys"])
            #expect(page.text.contains("Créer un compte"))
        }
    }

    @Test("bare /signup and /password-reset, and their next steps, link to the home page; with an app's request, back to its sign-in")
    func accountPages() async throws {
        try await withTestServer { server in
            let browser = server.client()
            for path in ["/signup", "/password-reset"] {
                let bare = try await browser.get(path)
                #expect(Self.links(bare.text).contains("/"), "\(path): \(Self.links(bare.text))")
            }
            var fields = HTMLForm(html: try await browser.get("/password-reset").text).fields
            fields["email"] = Fixtures.email
            let next = try await browser.postForm("/password-reset", fields)
            #expect(next.status == 200)
            #expect(Self.links(next.text).contains("/"), "the code form: \(Self.links(next.text))")

            // From the login page, the sign-up link carries the app's request and leads back to it.
            let login = try await OAuthFlow(browser: browser).authorize(.init())
            let signUpLink = try #require(Self.links(login.text).first { $0.hasPrefix("/signup?") })
            let carried = try await browser.get(signUpLink)
            #expect(Self.links(carried.text).contains { $0.hasPrefix("/login?authorization_ref=") }, "\(Self.links(carried.text))")
            #expect(!Self.links(carried.text).contains("/"))
        }
    }

    @Test("the passkeys page without a session says to sign in from the app and links to the home page")
    func passkeysWithoutSession() async throws {
        try await withTestServer { server in
            let page = try await server.client().get("/account/passkeys")
            #expect(page.status == 400)
            #expect(page.text.contains(try #require(StringTables.english["passkeys.sign_in_first"])))
            #expect(Self.links(page.text) == ["/"])
        }
    }
}

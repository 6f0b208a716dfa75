import Foundation
import HeadlessChromium
import Sesame
import SesameLoopback
import SesameServer
import SesameTesting
import Testing

/// The hosted pages in a real headless Chromium: the SDK's loopback agent opens the browser,
/// a person's typing is played over the DevTools protocol, and each test asserts where the
/// browser ended up and that the console reports no Content-Security-Policy violation.
///
/// These catch what no HTTP-level test can: Chromium applies CSP `form-action` to the redirect
/// that follows a form POST (CSP3 §6.4.1), which once stopped every hosted sign-in from
/// returning to the app.
@Suite(
    "Hosted sign-in in a real browser (Chromium)", .serialized,
    .enabled(if: chromiumAvailable, "no Chromium here; install Debian's chromium to run these"))
struct HostedSignInBrowserTests {
    @Test("password sign-in on the hosted page returns to the app's loopback redirect; SSO signs in a second time without typing")
    func passwordSignInThenSSO() async throws {
        try await withServer { server in
            try await withChromium { _, tab in
                let account = try await server.signInThroughBrowser(tab)
                #expect(!account.subject.isEmpty)
                let landed = try await tab.url()
                #expect(landed.hasPrefix("http://127.0.0.1:"), "ended at \(landed)")
                #expect(!landed.hasPrefix(server.origin))
                #expect(URLComponents(string: landed)?.path == "/callback")
                await expectNoCSPViolation(tab)

                // Browser SSO: a second app (a second SDK client) signs in without a form.
                let second = server.loopbackSDK()
                let before = await tab.documentRequests().count
                let again = try await second.signIn(with: chromiumAgent(tab))
                #expect(again.subject == account.subject)
                let requests = await tab.documentRequests().dropFirst(before)
                #expect(requests.count == 2, "authorize then callback, no login page: \(Array(requests))")
                #expect(requests.first?.hasPrefix(server.origin + "/authorize") == true)
                #expect(requests.last.flatMap { URLComponents(string: $0)?.path } == "/callback")
                #expect(try await tab.text().contains(IntegrationServer.password) == false)
                await expectNoCSPViolation(tab)
            }
        }
    }

    @Test("sign-in with an email code as second factor returns to the app")
    func signInWithMFA() async throws {
        try await withServer { server in
            let user = try await server.addUser("grace")
            let native = server.sdk()
            _ = try await passwordLogin(native, user)
            try await native.mfa.enableEmail()
            try await withChromium { _, tab in
                let sdk = server.loopbackSDK()
                let signedIn = Task { try await sdk.signIn(with: chromiumAgent(tab)) }
                try await typeCredentials(tab, username: user.username, password: user.password, origin: server.origin)
                try await tab.waitForURL("the MFA step") { $0.hasPrefix(server.origin + "/login") }
                try await tab.screenshot(to: screenshotFile("mfa-en"))
                let code = try await server.latestCode(to: user.email)
                try await tab.fill("mfa_code", code)
                try await tab.submit()
                let account = try await finish(signedIn, in: tab)
                #expect(account.subject == user.sub)
                let landed = try await tab.url()
                #expect(URLComponents(string: landed)?.path == "/callback", "ended at \(landed)")
                await expectNoCSPViolation(tab)
            }
        }
    }

    @Test("RP-initiated logout: the confirmation form ends at the registered post_logout_redirect_uri")
    func logoutConfirmation() async throws {
        try await withServer { server in
            try await withChromium { _, tab in
                _ = try await server.signInThroughBrowser(tab)

                // A listener for the post-logout redirect on its own loopback port, registered
                // exactly (RP-Initiated Logout §3 has no loopback port exception).
                let listener = try await chromiumAgent(tab).start(
                    redirectURI: URL(string: "http://127.0.0.1/signed-out")!, ephemeral: false)
                let admin = ServerAdmin(
                    store: server.running.store, hasher: TestServer.hasher, keyRing: server.running.keyRing)
                _ = try await admin.addClient(
                    ClientSpec(
                        clientID: "logout-app", redirectURIs: ["http://127.0.0.1/callback"],
                        postLogoutRedirectURIs: [listener.redirectURI.absoluteString], firstParty: true))
                var logout = URLComponents(string: server.origin + "/logout")!
                logout.queryItems = [
                    URLQueryItem(name: "client_id", value: "logout-app"),
                    URLQueryItem(name: "post_logout_redirect_uri", value: listener.redirectURI.absoluteString),
                    URLQueryItem(name: "state", value: "bye"),
                ]
                let returned = Task { try await listener.authorize(logout.url!) }
                try await tab.waitForURL("the sign-out confirmation") { $0.hasPrefix(server.origin + "/logout") }
                try await tab.screenshot(to: screenshotFile("logout-confirmation-en"))
                try await tab.submit()
                let redirect = try await finish(returned, in: tab)
                #expect(URLComponents(url: redirect, resolvingAgainstBaseURL: false)?.queryItems?.first?.value == "bye")
                #expect(try await tab.url().hasPrefix(listener.redirectURI.absoluteString))
                await expectNoCSPViolation(tab)

                // The session is over: the next sign-in shows the form again.
                _ = try await server.signInThroughBrowser(tab)
            }
        }
    }

    @Test("error pages: unknown client and unregistered redirect are shown, never redirected")
    func errorPages() async throws {
        try await withServer { server in
            try await withChromium { _, tab in
                for (name, query) in [
                    ("error-unknown-client", "client_id=nobody&response_type=code"),
                    (
                        "error-unregistered-redirect",
                        "client_id=\(IntegrationServer.clientID)&response_type=code&redirect_uri=https%3A%2F%2Fevil.example.com%2Fcb"
                    ),
                ] {
                    try await tab.navigate(URL(string: server.origin + "/authorize?" + query)!)
                    let url = try await tab.url()
                    #expect(url.hasPrefix(server.origin + "/authorize"), "\(name) left the server: \(url)")
                    let text = try await tab.text()
                    #expect(!text.isEmpty)
                    try await tab.screenshot(to: screenshotFile(name))
                }
                await expectNoCSPViolation(tab)
            }
        }
    }

    @Test("the login page in English, Arabic (right to left) and Japanese", arguments: ["en", "ar", "ja"])
    func localizedLoginPage(locale: String) async throws {
        try await withServer { server in
            try await withChromium { _, tab in
                let sdk = server.loopbackSDK()
                let options = SignInOptions(uiLocales: [locale])
                let signIn = Task { try await sdk.signIn(with: chromiumAgent(tab), options: options) }
                try await tab.waitForURL(timeout: .seconds(60), "the login page") { $0.hasPrefix(server.origin + "/authorize") }
                #expect(try await tab.evaluate("document.documentElement.lang").string?.hasPrefix(locale) == true)
                let direction = try await tab.evaluate("getComputedStyle(document.body).direction").string
                #expect(direction == (locale == "ar" ? "rtl" : "ltr"))
                try await tab.screenshot(to: screenshotFile("login-\(locale)"))
                await expectNoCSPViolation(tab)
                signIn.cancel()
                _ = await signIn.result
            }
        }
    }
}

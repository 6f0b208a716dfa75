import Foundation
import HeadlessChromium
import Sesame
import SesameLoopback
import SesameProtocol
import SesameServer
import Testing

/// Passkeys on the hosted pages in a real headless Chromium with a virtual authenticator
/// (DevTools `WebAuthn.addVirtualAuthenticator`): the page's own script, the browser's WebAuthn,
/// the server's ceremonies. The issuer is `http://localhost:<port>`: browsers refuse passkeys
/// for an IP address.
@Suite(
    "Passkeys in a real browser (Chromium)", .serialized,
    .enabled(if: chromiumAvailable, "no Chromium here; install Debian's chromium to run these"))
struct PasskeyBrowserTests {
    @Test("after a password sign-in a passkey is registered on the account page; then it alone signs in on the hosted page and the app gets a code")
    func registerThenSignIn() async throws {
        try await withServer(configure: { $0.issuerHost = "localhost" }) { server in
            try await withChromium { _, tab in
                let authenticator = try await tab.addVirtualAuthenticator()
                let account = try await server.signInThroughBrowser(tab)

                // The account's passkeys page, in the browser session just started.
                try await tab.navigate(server.issuer.appendingPathComponent("account/passkeys"))
                try await Self.waitUntil(tab, "the add button") {
                    try await tab.evaluate("!document.getElementById('sesame-passkey-add').hidden").bool == true
                }
                #expect(try await tab.text().contains("You have no passkeys yet."))
                try await tab.screenshot(to: screenshotFile("passkeys-account-en"))
                try await tab.runAndWait("document.getElementById('sesame-passkey-add-button').click()")
                let added = try await tab.text()
                #expect(added.contains("Your passkey was added"), "\(added)")
                #expect(try await tab.virtualCredentials(authenticator).count == 1)
                #expect(added.contains("On this device only"), "a device-bound passkey (hwk): \(added)")
                await expectNoCSPViolation(tab)

                // A new sign-in (prompt=login shows the page despite the session): the passkey alone.
                let sdk = server.loopbackSDK()
                let signedIn = Task { try await sdk.signIn(with: chromiumAgent(tab), options: SignInOptions(prompt: ["login"])) }
                // Conditional UI may sign in as soon as the page loads: the login page, or already the app.
                try await tab.waitForURL(timeout: .seconds(60), "the login page or the app") {
                    $0.hasPrefix(server.origin + "/authorize") || URLComponents(string: $0)?.path == "/callback"
                }
                // The button shows once the options came (conditional UI may already be signing in).
                try await Self.waitUntil(tab, "the passkey button or the app") {
                    let url = try await tab.url()
                    guard url.hasPrefix(server.origin) else { return true }
                    return try await tab.evaluate(
                        "(function(){var f=document.getElementById('sesame-passkey');return !!f && !f.hidden;})()"
                    ).bool == true
                }
                if try await tab.url().hasPrefix(server.origin + "/authorize") {
                    try? await tab.screenshot(to: screenshotFile("passkeys-login-en"))
                    // Conditional UI may sign in first; then there is no button left to press.
                    _ = try? await tab.evaluate(
                        "(function(){var b=document.getElementById('sesame-passkey-button');if(b){b.click();}return true;})()")
                }
                let again = try await finish(signedIn, in: tab)
                #expect(again.subject == account.subject)
                let claims = try await sdk.idTokenClaims()
                #expect(claims.acr == AuthenticationContextClass.multiFactor)
                #expect(claims.amr == ["hwk", "user", "pin", "mfa"])
                let landed = try await tab.url()
                #expect(URLComponents(string: landed)?.path == "/callback", "ended at \(landed)")
                await expectNoCSPViolation(tab)
            }
        }
    }

    @Test("a passkey without user verification is the hosted MFA step after the password: acr mfa, amr pwd hwk user mfa")
    func passkeyAsSecondFactor() async throws {
        try await withServer(configure: { $0.issuerHost = "localhost" }) { server in
            try await withChromium { _, tab in
                let authenticator = try await tab.addVirtualAuthenticator(userVerification: false)
                _ = try await server.signInThroughBrowser(tab)
                try await tab.navigate(server.issuer.appendingPathComponent("account/passkeys"))
                try await Self.waitUntil(tab, "the add button") {
                    try await tab.evaluate("!document.getElementById('sesame-passkey-add').hidden").bool == true
                }
                try await tab.runAndWait("document.getElementById('sesame-passkey-add-button').click()")
                #expect(try await tab.text().contains("Your passkey was added"))
                #expect(try await tab.virtualCredentials(authenticator).count == 1)

                // A sign-in that asks for MFA: the password, then the passkey on the MFA page.
                let sdk = server.loopbackSDK()
                let signedIn = Task {
                    try await sdk.signIn(
                        with: chromiumAgent(tab),
                        options: SignInOptions(prompt: ["login"], acrValues: [AuthenticationContextClass.multiFactor]))
                }
                try await typeCredentials(tab, username: IntegrationServer.username, password: IntegrationServer.password, origin: server.origin)
                try await tab.waitForURL("the MFA step") { $0.hasPrefix(server.origin + "/login") }
                try? await tab.screenshot(to: screenshotFile("passkeys-mfa-en"))
                try await tab.evaluate("document.querySelector('button[name=\"mfa_method\"][value=\"passkey\"]').click(); true")
                let account = try await finish(signedIn, in: tab)
                #expect(!account.subject.isEmpty)
                let claims = try await sdk.idTokenClaims()
                #expect(claims.acr == AuthenticationContextClass.multiFactor)
                #expect(claims.amr == ["pwd", "hwk", "user", "mfa"])
                await expectNoCSPViolation(tab)
            }
        }
    }

    @Test("where WebAuthn is missing the passkey part stays hidden and the password signs in as before")
    func fallsBackCleanly() async throws {
        try await withServer(configure: { $0.issuerHost = "localhost" }) { server in
            try await withChromium { _, tab in
                try await tab.runBeforeEachDocument("delete window.PublicKeyCredential;")
                let sdk = server.loopbackSDK()
                let signedIn = Task { try await sdk.signIn(with: chromiumAgent(tab)) }
                try await tab.waitForURL(timeout: .seconds(60), "the login page") { $0.hasPrefix(server.origin + "/authorize") }
                try await Task.sleep(for: .milliseconds(300))
                #expect(try await tab.evaluate("typeof window.PublicKeyCredential").string == "undefined")
                #expect(try await tab.evaluate("document.getElementById('sesame-passkey').hidden").bool == true)
                try await typeCredentials(tab, username: IntegrationServer.username, password: IntegrationServer.password, origin: server.origin)
                let account = try await finish(signedIn, in: tab)
                #expect(!account.subject.isEmpty)
                await expectNoCSPViolation(tab)
            }
        }
    }

    static func waitUntil(
        _ tab: BrowserTab, _ what: String, timeout: Duration = .seconds(30), _ condition: () async throws -> Bool
    ) async throws {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        while clock.now < deadline {
            if (try? await condition()) == true { return }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw FixtureError("\(what) did not come within \(timeout); the browser is at \((try? await tab.url()) ?? "?")")
    }
}

import Foundation
import HeadlessChromium
import Sesame
import SesameLoopback
import SesameProtocol
import SesameServer
import SesameTesting
import Testing

/// The attacks of issue #44 in a real browser: the login form of a pushed request edited in the
/// page (another client's parameters added, the reference swapped) before a person submits it.
/// What the server holds is what signs in; a reference it does not hold for this browser gets
/// the "sign-in expired" page and never leaves the server.
@Suite(
    "Held authorization requests in a real browser (Chromium)", .serialized,
    .enabled(if: chromiumAvailable, "no Chromium here; install Debian's chromium to run these"))
struct HeldRequestBrowserTests {
    /// Adds hidden inputs to the login form, as an attacker's script or a person with the
    /// developer tools would.
    static func addFields(_ fields: [String: String], in tab: BrowserTab) async throws {
        let json = String(decoding: try JSONSerialization.data(withJSONObject: fields), as: UTF8.self)
        let added = try await tab.evaluate(
            """
            (() => { const form = document.querySelector('input[name=authorization_ref]').form;
              const fields = \(json);
              for (const name in fields) {
                let input = form.elements[name];
                if (!input) { input = document.createElement('input'); input.type = 'hidden'; input.name = name; form.appendChild(input); }
                input.value = fields[name];
              }
              return form.elements.length; })()
            """)
        #expect((added.number ?? 0) > Double(fields.count))
    }

    @Test("another client's parameters added to the pushed request's form: the app's own request signs in")
    func editedFormSignsInTheHeldRequest() async throws {
        try await withServer { server in
            let admin = ServerAdmin(
                store: server.running.store, hasher: TestServer.hasher, keyRing: server.running.keyRing)
            _ = try await admin.addClient(
                ClientSpec(clientID: "other-app", redirectURIs: ["http://127.0.0.1/other"], firstParty: true))
            var configuration = server.configuration(redirectURI: IntegrationServer.loopbackRedirectURI)
            configuration.pushedAuthorization = .always
            let sdk = SesameClient(configuration: configuration, store: InMemoryCredentialStore())
            try await withChromium { _, tab in
                let signedIn = Task { try await sdk.signIn(with: chromiumAgent(tab)) }
                try await tab.waitForURL(timeout: .seconds(60), "the login page") { $0.hasPrefix(server.origin + "/authorize") }
                #expect(try await tab.url().contains("request_uri="), "the SDK pushed its request")
                try await Self.addFields(
                    [
                        "client_id": "other-app", "redirect_uri": "http://127.0.0.1/other", "state": "forged",
                        "response_type": "code", "scope": "openid profile email offline_access",
                        "code_challenge": PKCE().challenge, "code_challenge_method": "S256", "dpop_jkt": "",
                    ], in: tab)
                try await tab.fill("username", IntegrationServer.username)
                try await tab.fill("password", IntegrationServer.password)
                try await tab.submit()
                // The SDK checks state, iss and the redirect: it accepts only its own request's answer.
                let account = try await finish(signedIn, in: tab)
                #expect(!account.subject.isEmpty)
                let landed = try await tab.url()
                #expect(URLComponents(string: landed)?.path == "/callback", "ended at \(landed), not /other")
                await expectNoCSPViolation(tab)
            }
        }
    }

    @Test("a reference swapped in the page is refused with the expired page; the browser stays on the server")
    func swappedReference() async throws {
        try await withServer { server in
            try await withChromium { _, tab in
                let sdk = server.loopbackSDK()
                let signIn = Task { try await sdk.signIn(with: chromiumAgent(tab)) }
                try await tab.waitForURL(timeout: .seconds(60), "the login page") { $0.hasPrefix(server.origin + "/authorize") }
                try await Self.addFields(["authorization_ref": String(repeating: "A", count: 43)], in: tab)
                try await tab.fill("username", IntegrationServer.username)
                try await tab.fill("password", IntegrationServer.password)
                try await tab.submitAndWait()
                let expired = StringTableLocalizer().string(APIErrorCode.signInExpired.messageKey, locales: ["en"])
                #expect(try await tab.text().contains(expired))
                #expect(try await tab.url().hasPrefix(server.origin + "/login"))
                try await tab.screenshot(to: screenshotFile("sign-in-expired-en"))
                signIn.cancel()
                _ = try? await signIn.value
                await expectNoCSPViolation(tab)
            }
        }
    }
}

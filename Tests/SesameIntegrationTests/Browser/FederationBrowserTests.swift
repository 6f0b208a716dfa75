import Foundation
import HeadlessChromium
import Sesame
import SesameLoopback
import SesameProtocol
import SesameServer
import Testing

/// The hosted login page's "Continue with …" in a real headless Chromium (docs/federation.md):
/// the link to a second Sesame server (the upstream provider), its own hosted login, its
/// redirect to our `/federation/callback`, and ours to the app. Two origins, two CSPs, redirects
/// after form posts: what only a real browser checks.
@Suite(
    "Federation in a real browser (Chromium)", .serialized,
    .enabled(if: chromiumAvailable, "no Chromium here; install Debian's chromium to run these"))
struct FederationBrowserTests {
    @Test("'Continue with Acme ID' goes to the upstream server's login page and back; the app gets a code for an account made from the upstream identity")
    func continueWith() async throws {
        try await withServer { server in
            let upstream = try await IntegrationServer.start()
            defer { Task { await upstream.stop() } }
            let vendorUser = try await FederationTests.registerBrokeredUpstream(upstream, at: server)

            try await withChromium { _, tab in
                let sdk = server.loopbackSDK()
                let signedIn = Task { try await sdk.signIn(with: chromiumAgent(tab)) }
                try await tab.waitForURL(timeout: .seconds(60), "the login page") { $0.hasPrefix(server.origin + "/authorize") }
                #expect(try await tab.text().contains("Continue with Acme ID"))
                try await tab.runAndWait(
                    "Array.from(document.querySelectorAll('a')).find(a => a.textContent.includes('Acme ID')).click()")
                try await typeCredentials(tab, username: vendorUser.username, password: vendorUser.password, origin: upstream.origin)
                let account = try await finish(signedIn, in: tab)
                let user = try #require(try await server.running.store.user(login: vendorUser.email))
                #expect(account.subject == user.id, "the account was made from the upstream identity")
                #expect(try await sdk.idTokenClaims().amr == ["fed"])
                let landed = try await tab.url()
                #expect(URLComponents(string: landed)?.path == "/callback", "ended at \(landed)")
                await expectNoCSPViolation(tab)
            }
        }
    }
}

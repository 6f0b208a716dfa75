import Foundation
import HeadlessChromium
import Sesame
import SesameLoopback
import SesameProtocol
import SesameServer
import Testing

/// The hosted login page's proof-of-work solver (Web Crypto in Web Workers, this origin's
/// script only) in a real headless Chromium: the page carries a challenge, the browser solves it
/// while the user types, the form goes through with the nonce, and the strict CSP holds.
@Suite(
    "Hosted challenge solver in a real browser (Chromium)", .serialized,
    .enabled(if: chromiumAvailable, "no Chromium here; install Debian's chromium to run these"))
struct ChallengeBrowserTests {
    @Test("with challenges always on, the login page solves a 14-bit proof of work in Web Workers and the sign-in returns to the app")
    func solvesAndSignsIn() async throws {
        try await withServer(configure: {
            $0.challenges = ChallengePolicy(modes: [.signIn: .always], baseDifficulty: 14)
        }) { server in
            try await withChromium { _, tab in
                let sdk = server.loopbackSDK()
                let signedIn = Task { try await sdk.signIn(with: chromiumAgent(tab)) }
                try await tab.waitForURL(timeout: .seconds(60), "the login page") { $0.hasPrefix(server.origin + "/authorize") }
                let difficulty = try await tab.evaluate(
                    "document.getElementById('sesame-challenge').getAttribute('data-difficulty')")
                #expect(difficulty.string == "14")
                try await tab.fill("username", IntegrationServer.username)
                try await tab.fill("password", IntegrationServer.password)
                try await tab.screenshot(to: screenshotFile("challenge-en"))
                // Pressed at once (the workers may still be searching): the page holds the
                // submission until they find the nonce, then sends it.
                try await tab.submit()
                let account: Account
                do {
                    account = try await finish(signedIn, in: tab)
                } catch {
                    await server.running.flushAuditLog()
                    let log = server.running.store
                    let records = try await log.auditRecords(AuditQuery())
                    Issue.record("audit: \(records.map { "\($0.event) \($0.reason ?? "")" }); page: \((try? await tab.text()) ?? "")")
                    await expectNoCSPViolation(tab)
                    throw error
                }
                #expect(!account.subject.isEmpty)
                let landed = try await tab.url()
                #expect(URLComponents(string: landed)?.path == "/callback", "ended at \(landed)")
                await expectNoCSPViolation(tab)

                await server.running.flushAuditLog()
                let log = server.running.store
                let events = try await log.auditRecords(AuditQuery(events: ["challenge.", "sign_in."])).map(\.event)
                #expect(events == ["challenge.issued", "challenge.solved", "sign_in.succeeded"], "\(events)")
            }
        }
    }

    @Test("a submission pressed before the nonce is found is held: no request leaves the page while the workers search (28 bits)")
    func holdsTheSubmission() async throws {
        try await withServer(configure: {
            $0.challenges = ChallengePolicy(modes: [.signIn: .always], baseDifficulty: 28, maximumDifficulty: 28)
        }) { server in
            try await withChromium { _, tab in
                let sdk = server.loopbackSDK()
                let signedIn = Task { try await sdk.signIn(with: chromiumAgent(tab)) }
                try await typeCredentials(
                    tab, username: IntegrationServer.username, password: IntegrationServer.password, origin: server.origin)
                try await Task.sleep(for: .milliseconds(500))
                let state = try await tab.evaluate("document.getElementById('sesame-challenge').getAttribute('data-state')")
                #expect(state.string == "solving")
                let progress = try await tab.evaluate("document.getElementById('sesame-challenge-progress').value")
                #expect(progress.number != nil)
                #expect(try await tab.url().hasPrefix(server.origin + "/authorize"), "still on the login page")
                try await tab.screenshot(to: screenshotFile("challenge-solving-en"))
                signedIn.cancel()
                await server.running.flushAuditLog()
                let log = server.running.store
                let events = try await log.auditRecords(AuditQuery(events: ["challenge.", "sign_in."])).map(\.event)
                #expect(events == ["challenge.issued"], "no sign-in reached the server: \(events)")
                await expectNoCSPViolation(tab)
            }
        }
    }
}

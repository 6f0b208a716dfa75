import Foundation
import HeadlessChromium
import Sesame
import SesameServer
import Testing

/// The admin console (issue #47) in a real headless Chromium: an operator signs in through the
/// hosted login with a second factor (TOTP from an authenticator app, played by the test), reads
/// the overview, finds a user among 100,000, disables
/// them (their refresh token fails at once), edits a client's redirect URIs (the next
/// `/authorize` accepts the new one), rotates the signing keys and signs out; no page breaks CSP
/// and none shows a secret.
@Suite(
    "Admin console in a real browser (Chromium)", .serialized,
    .enabled(if: chromiumAvailable, "no Chromium here; install Debian's chromium to run these"))
struct AdminConsoleBrowserTests {
    @Test("an administrator signs in with TOTP, disables a user, edits a client, rotates keys and signs out")
    func administratorJourney() async throws {
        try await withServer { server in
            let operatorUser = try await server.addUser("olga")
            try await server.running.store.setAdminRole(.admin, userID: operatorUser.sub, grantedBy: nil, at: Date())
            // The operator's authenticator app: TOTP enrolled through the SDK.
            let phone = server.sdk()
            _ = try await passwordLogin(phone, operatorUser)
            let enrollment = try await phone.mfa.enrollTOTP()
            let enrolledStep = TestTOTP.currentStep()
            try await phone.mfa.confirmTOTP(code: TestTOTP.code(secret: enrollment.secret, step: enrolledStep))
            let customer = try await server.addUser("mallory")
            // The customer is one among 100,000 (the search goes through its index, not a scan).
            let store = try #require(server.running.store as? SQLIdentityStore)
            for start in stride(from: 0, to: 100_000, by: 10_000) {
                try await store.importUsers(
                    (start..<start + 10_000).map { index in
                        UserRecord(username: "member\(index)", email: "member\(index)@example.org", emailVerified: true)
                    })
            }
            let app = server.sdk()
            _ = try await passwordLogin(app, customer)
            let keysBefore = try await server.running.keyRing.keys().count

            try await withChromium { _, tab in
                let origin = server.origin
                try await tab.navigate(URL(string: origin + "/admin")!)
                try await typeCredentials(tab, username: operatorUser.username, password: operatorUser.password, origin: origin)
                // The console's client always asks for a second factor: the authenticator app's code.
                try await tab.waitForURL("the second-factor step") { $0.hasPrefix(origin + "/login") }
                // TOTP is the operator's one factor: the page asks for its code at once, nothing is mailed.
                #expect(try await tab.evaluate("document.querySelectorAll('button[name=mfa_method]').length").number == 0)
                let step = TestTOTP.nextStep(after: enrolledStep)
                try await tab.fill("mfa_code", try TestTOTP.code(secret: enrollment.secret, step: step))
                try await tab.submit()
                try await tab.waitForURL("the console's overview") { $0 == origin + "/admin" }
                let overview = try await tab.text()
                #expect(overview.contains("Overview") && overview.contains("Signed in as olga (admin)"), "\(overview.prefix(400))")
                #expect(overview.contains("100,003") || overview.contains("100003"), "users counted: \(overview.prefix(600))")
                #expect(try await tab.evaluate("document.querySelectorAll('main svg[role=img]').length").number == 4)
                try await tab.screenshot(to: screenshotFile("admin-overview"))

                // Find the customer by an email prefix through the search form.
                try await tab.navigate(URL(string: origin + "/admin/users")!)
                try await tab.fill("q", "mallory@exa")
                try await tab.submitAndWait("form[role=search] button")
                #expect(try await tab.text().contains("mallory@example.com"))
                try await tab.runAndWait("document.querySelector('main a[href^=\"/admin/users/\"]').click()")
                #expect(try await tab.url() == origin + "/admin/users/" + customer.sub)
                try await tab.submitAndWait("form[action$='/disable'] button")
                #expect(try await tab.text().contains("The account is disabled"))
                await #expect(throws: SesameError.self) { _ = try await app.validAccessToken(forceRefresh: true) }

                // Edit the client's redirect URIs; the next authorization request sees the new one.
                try await tab.navigate(URL(string: origin + "/admin/clients/" + IntegrationServer.clientID)!)
                let current = try await tab.evaluate("document.querySelector('[name=redirect_uris]').value").string ?? ""
                try await tab.fill("redirect_uris", current + "\nhttp://127.0.0.1/console-added")
                try await tab.submitAndWait("form[action^='/admin/clients/'] button")
                let saved = try await tab.text()
                #expect(saved.contains("Saved."), "\(saved.prefix(600))")
                let client = try await server.running.store.client(id: IntegrationServer.clientID)
                #expect(client?.redirectURIs.contains("http://127.0.0.1/console-added") == true)

                // Rotate the signing keys (the sign-in is recent enough).
                try await tab.navigate(URL(string: origin + "/admin/keys")!)
                try await tab.submitAndWait("form[action='/admin/keys/rotate'] button")
                #expect(try await tab.text().contains("New keys sign from now on"))
                #expect(try await server.running.keyRing.keys().count > keysBefore)
                // Retire one of the new keys: a successor of its algorithm signs in its place.
                let published = try await server.running.keyRing.keys().count
                try await tab.submitAndWait("form[action$='/retire']:not(:has([name=immediately])) button")
                #expect(try await tab.text().contains("The key no longer signs"))
                #expect(try await server.running.keyRing.keys().count == published + 1)

                // The audit log shows what the operator did, naming them.
                // (The audit log is written in batches: reload until the last change is in.)
                var audit = ""
                for _ in 0..<100 where !audit.contains("admin.key_retired") {
                    try await tab.navigate(URL(string: origin + "/admin/audit?event=admin.&since=hour")!)
                    audit = try await tab.text()
                }
                #expect(audit.contains("admin.user_disabled") && audit.contains("admin.client_updated") && audit.contains("admin.keys_rotated") && audit.contains("admin.key_retired"))
                #expect(!audit.contains(operatorUser.password) && !audit.contains(customer.password))
                await expectNoCSPViolation(tab)

                try await tab.submitAndWait("header form button")
                #expect(try await tab.url() == origin + "/admin/signed-out")
                try await tab.navigate(URL(string: origin + "/admin/users")!)
                try await tab.waitForURL("the sign-in again") { $0.hasPrefix(origin + "/authorize") || $0.hasPrefix(origin + "/login") }
            }
        }
    }
}

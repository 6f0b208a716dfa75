import Foundation
import HeadlessChromium
import Sesame
import SesameLoopback
import SesameServer
import Testing

/// The hosted account pages in a real Chromium, reached as a person reaches them: from the
/// login page's links, ending back in the app.
@Suite(
    "Hosted sign-up, email confirmation and password reset in a real browser (Chromium)", .serialized,
    .enabled(if: chromiumAvailable, "no Chromium here; install Debian's chromium to run these"))
struct HostedAccountPagesBrowserTests {
    @Test("Create an account from the login page: the emailed code confirms it and the app is signed in")
    func signUpFromLoginPage() async throws {
        try await withServer { server in
            try await withChromium { _, tab in
                let sdk = server.loopbackSDK()
                let signedIn = Task { try await sdk.signIn(with: chromiumAgent(tab)) }
                try await tab.waitForURL(timeout: .seconds(60), "the login page") { $0.hasPrefix(server.origin + "/authorize") }
                try await tab.runAndWait("document.querySelector('a[href^=\"/signup\"]').click()")
                #expect(try await tab.url().hasPrefix(server.origin + "/signup?"))

                // A weak password is refused with the field's message; what was typed stays.
                try await tab.fill("email", "lin@example.com")
                try await tab.fill("password", "password")
                try await tab.submitAndWait()
                #expect(try await tab.evaluate("document.querySelector('.error') !== null").bool == true)
                #expect(try await tab.evaluate("document.querySelector('[name=email]').value").string == "lin@example.com")
                #expect(try await tab.evaluate("document.querySelector('[name=password]').value").string == "")
                try await tab.screenshot(to: screenshotFile("signup-refused-en"))

                try await tab.fill("name", "Lin Example")
                try await tab.fill("password", "a long and unusual passphrase")
                try await tab.submitAndWait()
                let codeField = "document.querySelector('[name=code]') !== null"
                #expect(try await tab.evaluate(codeField).bool == true)
                try await tab.screenshot(to: screenshotFile("verify-email-en"))
                let code = try await server.latestCode(to: "lin@example.com")
                try await tab.fill("code", code)
                try await tab.submit()

                let account = try await finish(signedIn, in: tab)
                #expect(URLComponents(string: try await tab.url())?.path == "/callback")
                await expectNoCSPViolation(tab)
                let user = try #require(try await server.running.store.user(login: "lin@example.com"))
                #expect(account.subject == user.id)
                #expect(user.emailVerified)
                #expect(user.claims.name == "Lin Example")
            }
        }
    }

    @Test("Forgot your password: the emailed code sets a new one, and the new one signs in")
    func passwordResetFromLoginPage() async throws {
        try await withServer { server in
            let user = try await server.addUser("mia")
            try await withChromium { _, tab in
                let sdk = server.loopbackSDK()
                let signedIn = Task { try await sdk.signIn(with: chromiumAgent(tab)) }
                try await tab.waitForURL(timeout: .seconds(60), "the login page") { $0.hasPrefix(server.origin + "/authorize") }
                try await tab.runAndWait("document.querySelector('a[href^=\"/password-reset\"]').click()")
                #expect(try await tab.url().hasPrefix(server.origin + "/password-reset?"))
                try await tab.fill("email", user.email)
                try await tab.submitAndWait()
                #expect(try await tab.url() == server.origin + "/password-reset")
                try await tab.screenshot(to: screenshotFile("password-reset-en"))
                let code = try await server.latestCode(to: user.email)
                try await tab.fill("code", code)
                try await tab.fill("new_password", "a brand new passphrase 2026")
                try await tab.submitAndWait()
                #expect(try await tab.url() == server.origin + "/password-reset/confirm")
                #expect(try await tab.evaluate("document.querySelector('form') === null").bool == true)

                // "Back to sign in" returns to the same authorization request, held on the server.
                try await tab.runAndWait("document.querySelector('a[href^=\"/login?authorization_ref=\"]').click()")
                try await typeCredentials(
                    tab, username: user.username, password: "a brand new passphrase 2026", origin: server.origin, path: "/login")
                let account = try await finish(signedIn, in: tab)
                #expect(account.subject == user.sub)
                await expectNoCSPViolation(tab)
            }
        }
    }

    @Test("the stand-alone email confirmation page: a wrong code says so, the right one confirms")
    func standaloneVerification() async throws {
        try await withServer { server in
            let user = try await server.addUser("noor", emailVerified: false)
            try await withChromium { _, tab in
                try await tab.navigate(URL(string: server.origin + "/verify-email?email=\(user.email)")!)
                try await tab.submitAndWait("button.secondary")  // "Send a new code"
                let code = try await server.latestCode(to: user.email)
                let wrong = code == "000000" ? "111111" : "000000"
                try await tab.fill("code", wrong)
                try await tab.submitAndWait()
                #expect(try await tab.evaluate("document.querySelector('.error') !== null").bool == true)
                try await tab.fill("code", code)
                try await tab.submitAndWait()
                #expect(try await tab.evaluate("document.querySelector('form') === null").bool == true)
                #expect(try await server.running.store.user(login: user.email)?.emailVerified == true)
                await expectNoCSPViolation(tab)
            }
        }
    }
}

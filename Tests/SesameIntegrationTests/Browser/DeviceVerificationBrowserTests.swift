import Foundation
import HeadlessChromium
import SesameProtocol
import SesameServer
import SesameStore
import SesameTesting
import Testing

/// The device verification page (RFC 8628 §3.3, issue #33) in a real headless Chromium: a TV's
/// request is approved, then another denied, by a person typing in the browser; the TV's polls
/// over HTTP see the outcome, and no page breaks its Content-Security-Policy.
@Suite(
    "Device verification page in a real browser (Chromium)", .serialized,
    .enabled(if: chromiumAvailable, "no Chromium here; install Debian's chromium to run these"))
struct DeviceVerificationBrowserTests {
    static let tvApp = "tv-app"

    @Test("approve from verification_uri_complete after the hosted login, then deny a second request with the session")
    func approveThenDeny() async throws {
        try await withServer { integration in
            let server = integration.server
            try await server.store.upsertClient(
                ClientRecord(
                    clientID: Self.tvApp, name: "Living Room TV", redirectURIs: [], grantTypes: [.deviceCode, .refreshToken],
                    allowedScopes: ["openid", "profile", "offline_access"]))
            let device = server.client()
            func start() async throws -> DeviceAuthorizationResponse {
                let response = try await device.postForm(
                    "/device_authorization", ["client_id": Self.tvApp, "scope": "openid profile", "device_name": "Den TV"])
                try #require(response.status == 200, "\(response.text)")
                return try response.json(DeviceAuthorizationResponse.self)
            }
            func poll(_ code: String) async throws -> TestResponse {
                try await device.postForm(
                    "/token", ["grant_type": DeviceAuthorization.grantType, "device_code": code, "client_id": Self.tvApp])
            }
            try await withChromium { _, tab in
                let first = try await start()
                try await tab.navigate(try #require(first.verificationURIComplete))
                try await tab.waitUntilLoaded()
                let filled = try await tab.evaluate("document.querySelector('[name=user_code]').value").string
                #expect(filled == first.userCode, "verification_uri_complete fills the code in")
                try await tab.screenshot(to: screenshotFile("device-code-en"))
                try await tab.submitAndWait()
                #expect(try await tab.url().hasPrefix(integration.origin + "/authorize"), "the hosted login")
                try await tab.fill("username", IntegrationServer.username)
                try await tab.fill("password", IntegrationServer.password)
                try await tab.submitAndWait()
                try await tab.waitForURL("the question") { $0.hasPrefix(integration.origin + "/device/callback") }
                let question = try await tab.text()
                #expect(question.contains("Living Room TV") && question.contains("Den TV"), "\(question)")
                try await tab.screenshot(to: screenshotFile("device-question-en"))
                #expect(try await poll(first.deviceCode).status == 400, "nothing approved before the click")
                try await tab.submitAndWait("button[value=approve]")
                #expect(try await tab.text().contains("Device connected"))
                server.clock.advance(by: 6)
                let granted = try await poll(first.deviceCode)
                #expect(granted.status == 200, "\(granted.text)")

                // A second request with the browser's session: no login, still the question.
                let second = try await start()
                try await tab.navigate(URL(string: integration.origin + "/device")!)
                try await tab.waitUntilLoaded()
                try await tab.fill("user_code", second.userCode.lowercased())
                try await tab.submitAndWait()
                try await tab.waitForURL("the question") { $0.hasPrefix(integration.origin + "/device/callback") }
                try await tab.submitAndWait("button[value=deny]")
                #expect(try await tab.text().contains("Request denied"))
                let denied = try await poll(second.deviceCode)
                #expect(denied.status == 400 && denied.text.contains("access_denied"), "\(denied.text)")
                await expectNoCSPViolation(tab)
            }
        }
    }
}

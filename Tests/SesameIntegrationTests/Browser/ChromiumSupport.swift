import Foundation
import HeadlessChromium
import Sesame
import SesameLoopback
import SesameServer
import Testing

/// Opens the authorization URL in a real Chromium tab, as the system browser would.
struct ChromiumOpener: BrowserOpener {
    let tab: BrowserTab

    func open(_ url: URL) async throws { try await tab.navigate(url) }
}

/// Whether the real-browser suites run: where a Chromium is installed, and always in CI
/// (`CI=true`), where a missing browser fails instead of skipping.
let chromiumAvailable = HeadlessChromium.executable != nil || HeadlessChromium.isRequired

/// Runs `body` with a fresh headless Chromium and a new tab, and always closes them. Where no
/// browser is installed (and not in CI) the test is skipped by the suite's trait.
func withChromium(_ body: (HeadlessChromium, BrowserTab) async throws -> Void) async throws {
    let browser = try #require(try await HeadlessChromium.launch(), "\(HeadlessChromium.unavailableReason ?? "")")
    do {
        let tab = try await browser.newTab()
        try await body(browser, tab)
    } catch {
        await browser.close()
        throw error
    }
    await browser.close()
}

/// Screenshots for a person to look at: `.build/test-artifacts/screenshots/NAME.png` in the
/// package (not committed).
func screenshotFile(_ name: String) -> URL {
    URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent(".build/test-artifacts/screenshots/\(name).png")
}

/// Expects no Content-Security-Policy report in the tab's console.
func expectNoCSPViolation(_ tab: BrowserTab, sourceLocation: SourceLocation = #_sourceLocation) async {
    let violations = await tab.cspViolations()
    #expect(violations.isEmpty, "CSP violations: \(violations)", sourceLocation: sourceLocation)
}

extension IntegrationServer {
    /// An SDK client that signs in through the loopback redirect (RFC 8252 §7.3).
    func loopbackSDK() -> SesameClient {
        SesameClient(
            configuration: configuration(redirectURI: IntegrationServer.loopbackRedirectURI),
            store: InMemoryCredentialStore())
    }

    /// The server's origin, e.g. `http://127.0.0.1:8123`.
    var origin: String { issuer.absoluteString }
}

/// A loopback agent that opens URLs in `tab` and gives up after 90 s (a blocked redirect
/// would otherwise wait for the default 5 minutes).
func chromiumAgent(_ tab: BrowserTab) -> LoopbackBrowserAgent {
    LoopbackBrowserAgent(opener: ChromiumOpener(tab: tab), timeout: 90)
}

/// Signs in on the hosted login page shown in `tab`: waits for the form (generously: the whole
/// suite runs in parallel on two cores in CI), types, submits.
func typeCredentials(
    _ tab: BrowserTab, username: String, password: String, origin: String, path: String = "/authorize"
) async throws {
    try await tab.waitForURL(timeout: .seconds(60), "the login page") { $0.hasPrefix(origin + path) }
    try await tab.fill("username", username)
    try await tab.fill("password", password)
    try await tab.submit()
}

/// Awaits a sign-in (or any browser round trip) started in `task`; when it fails, the failure
/// also lists the tab's CSP reports and where the browser stands, which is what a person would
/// look at first.
func finish<T: Sendable>(
    _ task: Task<T, any Error>, in tab: BrowserTab, sourceLocation: SourceLocation = #_sourceLocation
) async throws -> T {
    do {
        return try await task.value
    } catch {
        let violations = await tab.cspViolations()
        let url = (try? await tab.url()) ?? "?"
        Issue.record(
            "the browser did not come back (at \(url)); CSP reports: \(violations)", sourceLocation: sourceLocation)
        throw error
    }
}

extension IntegrationServer {
    /// A new app (SDK client) signs in through the hosted login page in `tab` as the seeded user,
    /// typing the password as a person would; returns the signed-in account.
    func signInThroughBrowser(_ tab: BrowserTab, sourceLocation: SourceLocation = #_sourceLocation) async throws -> Account {
        let sdk = loopbackSDK()
        let signedIn = Task { try await sdk.signIn(with: chromiumAgent(tab)) }
        do {
            try await typeCredentials(
                tab, username: IntegrationServer.username, password: IntegrationServer.password, origin: origin)
        } catch {
            // Say why the login page never came: the SDK's sign-in may have failed before it
            // opened the browser.
            signedIn.cancel()
            if case .failure(let reason) = await signedIn.result {
                Issue.record("the sign-in ended before the login page showed: \(reason)", sourceLocation: sourceLocation)
            }
            throw error
        }
        return try await finish(signedIn, in: tab, sourceLocation: sourceLocation)
    }
}

import Foundation

/// One tab of ``HeadlessChromium``: navigate, fill and submit forms as a person would, wait for
/// where the browser ends up, read the console, take screenshots.
public struct BrowserTab: Sendable {
    let devTools: DevToolsPipe
    let session: String
    let targetID: String

    /// A console line or log entry of the page (including the browser's own CSP reports).
    public struct ConsoleEntry: Sendable, CustomStringConvertible {
        public let level: String
        public let text: String
        public var description: String { "[\(level)] \(text)" }
    }

    public struct Timeout: Error, CustomStringConvertible {
        public let description: String
    }

    func enableEvents() async throws {
        for domain in ["Page.enable", "Runtime.enable", "Log.enable", "Network.enable"] {
            try await devTools.send(domain, session: session)
        }
    }

    /// Opens `url` and waits until the page has loaded.
    public func navigate(_ url: URL) async throws {
        let result = try await devTools.send("Page.navigate", ["url": .string(url.absoluteString)], session: session)
        if let error = result["errorText"]?.string, !error.isEmpty {
            throw DevToolsPipe.CommandError(description: "navigating to \(url) failed: \(error)")
        }
        try await waitUntilLoaded()
    }

    /// Evaluates `expression` in the page and returns its value.
    @discardableResult
    public func evaluate(_ expression: String) async throws -> JSONValue {
        let result = try await devTools.send(
            "Runtime.evaluate", ["expression": .string(expression), "returnByValue": true, "awaitPromise": true],
            session: session)
        if let exception = result["exceptionDetails"] {
            throw DevToolsPipe.CommandError(description: "\(expression): \(exception)")
        }
        return result["result"]?["value"] ?? .null
    }

    /// The page's current URL.
    public func url() async throws -> String {
        try await evaluate("location.href").string ?? ""
    }

    /// The page's visible text.
    public func text() async throws -> String {
        try await evaluate("document.body ? document.body.innerText : ''").string ?? ""
    }

    /// Types `value` into the field named `name` (as the user would, firing input events).
    public func fill(_ name: String, _ value: String) async throws {
        let found = try await evaluate(
            """
            (() => { const f = document.querySelector('[name=' + \(Self.literal(name)) + ']');
              if (!f) return false; f.focus(); f.value = \(Self.literal(value));
              f.dispatchEvent(new Event('input', {bubbles: true})); return true; })()
            """)
        guard found.bool == true else { throw DevToolsPipe.CommandError(description: "no field named \(name)") }
    }

    /// Clicks the submit button matching `selector` (the first submit button by default), as a
    /// person would, so the browser enforces everything it enforces for a real submission.
    public func submit(_ selector: String = "button[type=submit]") async throws {
        let clicked = try await evaluate(
            """
            (() => { const b = document.querySelector(\(Self.literal(selector)));
              if (!b) return false; b.click(); return true; })()
            """)
        guard clicked.bool == true else { throw DevToolsPipe.CommandError(description: "nothing matches \(selector)") }
    }

    /// Submits like ``submit(_:)`` and waits until a new document has replaced this one and
    /// loaded (the current one is marked first, so a submission that goes nowhere — blocked by
    /// the browser, say — times out instead of passing for the old page).
    public func submitAndWait(_ selector: String = "button[type=submit]", timeout: Duration = .seconds(30)) async throws {
        try await evaluate("window.__sesameOldDocument = true")
        try await submit(selector)
        try await waitForNewDocument(timeout: timeout)
    }

    /// Runs `script` (a click on a link, say) and waits for the document it leads to.
    public func runAndWait(_ script: String, timeout: Duration = .seconds(30)) async throws {
        try await evaluate("window.__sesameOldDocument = true")
        try await evaluate(script)
        try await waitForNewDocument(timeout: timeout)
    }

    private func waitForNewDocument(timeout: Duration) async throws {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        while clock.now < deadline {
            let loaded = try? await evaluate(
                "window.__sesameOldDocument === undefined && document.readyState === 'complete'")
            if loaded?.bool == true { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw Timeout(description: "no new page within \(timeout); the browser is at \((try? await url()) ?? "?")")
    }

    /// Waits until the URL satisfies `predicate` and the page has loaded; returns the URL.
    @discardableResult
    public func waitForURL(
        timeout: Duration = .seconds(30), _ description: String, _ predicate: @Sendable (String) -> Bool
    ) async throws -> String {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        var last = ""
        while clock.now < deadline {
            last = (try? await url()) ?? last
            if predicate(last), (try? await evaluate("document.readyState").string) == "complete" { return last }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw Timeout(description: "the browser did not reach \(description) within \(timeout); it is at \(last)")
    }

    /// Waits until the document has loaded (after a navigation or a submission).
    public func waitUntilLoaded(timeout: Duration = .seconds(30)) async throws {
        try await waitForURL(timeout: timeout, "a loaded page") { _ in true }
    }

    /// Console messages and log entries so far.
    public func console() async -> [ConsoleEntry] {
        var entries: [ConsoleEntry] = []
        for event in await devTools.events(session: session) {
            switch event.method {
            case "Log.entryAdded":
                let entry = event.params["entry"]
                entries.append(ConsoleEntry(level: entry?["level"]?.string ?? "", text: entry?["text"]?.string ?? ""))
            case "Runtime.consoleAPICalled":
                let text = (event.params["args"]?.array ?? []).map { $0["value"]?.string ?? $0["description"]?.string ?? "" }
                entries.append(ConsoleEntry(level: event.params["type"]?.string ?? "", text: text.joined(separator: " ")))
            case "Runtime.exceptionThrown":
                let details = event.params["exceptionDetails"]
                entries.append(ConsoleEntry(level: "exception", text: details?["text"]?.string ?? "\(details ?? .null)"))
            default: continue
            }
        }
        return entries
    }

    /// Console entries that report a Content-Security-Policy violation.
    public func cspViolations() async -> [ConsoleEntry] {
        await console().filter { $0.text.localizedCaseInsensitiveContains("Content Security Policy") }
    }

    /// URLs of the documents the tab requested, in order (main frame navigations and redirects).
    public func documentRequests() async -> [String] {
        await devTools.events(method: "Network.requestWillBeSent", session: session)
            .filter { $0.params["type"]?.string == "Document" }
            .compactMap { $0.params["request"]?["url"]?.string }
    }

    /// Writes a PNG of the page to `file`.
    public func screenshot(to file: URL) async throws {
        let result = try await devTools.send("Page.captureScreenshot", ["format": "png"], session: session)
        guard let base64 = result["data"]?.string, let data = Data(base64Encoded: base64) else {
            throw DevToolsPipe.CommandError(description: "Page.captureScreenshot returned no image")
        }
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: file)
    }

    /// Adds a virtual WebAuthn authenticator to the tab (DevTools `WebAuthn.addVirtualAuthenticator`):
    /// CTAP2, built in (`internal`), with discoverable credentials, touched automatically, and
    /// able to verify the user (and succeeding) when `userVerification`. Returns its id.
    public func addVirtualAuthenticator(userVerification: Bool = true) async throws -> String {
        try await devTools.send("WebAuthn.enable", ["enableUI": .bool(false)], session: session)
        let options: JSONValue = .object([
            "protocol": .string("ctap2"), "transport": .string("internal"), "hasResidentKey": .bool(true),
            "hasUserVerification": .bool(userVerification), "isUserVerified": .bool(userVerification),
            "automaticPresenceSimulation": .bool(true),
        ])
        let result = try await devTools.send("WebAuthn.addVirtualAuthenticator", ["options": options], session: session)
        guard let id = result["authenticatorId"]?.string else {
            throw DevToolsPipe.CommandError(description: "WebAuthn.addVirtualAuthenticator returned no authenticatorId: \(result)")
        }
        return id
    }

    /// Runs `source` in every new document of the tab before its own scripts (DevTools
    /// `Page.addScriptToEvaluateOnNewDocument`), e.g. to take an API away as an older browser would.
    public func runBeforeEachDocument(_ source: String) async throws {
        try await devTools.send("Page.addScriptToEvaluateOnNewDocument", ["source": .string(source)], session: session)
    }

    /// The credentials the virtual authenticator `id` holds (DevTools `WebAuthn.getCredentials`).
    public func virtualCredentials(_ id: String) async throws -> [JSONValue] {
        try await devTools.send("WebAuthn.getCredentials", ["authenticatorId": .string(id)], session: session)["credentials"]?
            .array ?? []
    }

    /// Closes the tab.
    public func close() async {
        _ = try? await devTools.send("Target.closeTarget", ["targetId": .string(targetID)])
    }

    /// `value` as a JavaScript string literal.
    static func literal(_ value: String) -> String {
        let data = (try? JSONEncoder().encode(value)) ?? Data("\"\"".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}

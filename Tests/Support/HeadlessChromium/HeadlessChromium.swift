import ChildProcess
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A real headless Chromium for the tests of the hosted pages, driven over the DevTools
/// protocol on a pipe (``DevToolsPipe``), with a throw-away profile.
///
/// Tests call ``launch()``; it returns `nil` where no Chromium is installed (a developer's
/// machine: the test says so and skips), and fails where `CI=true` (CI must run these tests).
public final class HeadlessChromium: Sendable {
    public let devTools: DevToolsPipe
    private let child: SpawnedChild
    private let profile: URL

    private init(devTools: DevToolsPipe, child: SpawnedChild, profile: URL) {
        self.devTools = devTools
        self.child = child
        self.profile = profile
    }

    /// Why the browser tests cannot run here, or `nil` when a Chromium was found.
    public static var unavailableReason: String? {
        executable == nil
            ? "no Chromium found (install Debian's `chromium`, or set SESAME_CHROMIUM to its binary)" : nil
    }

    /// Whether a missing browser must fail the test instead of skipping it.
    public static var isRequired: Bool { ProcessInfo.processInfo.environment["CI"] == "true" }

    /// The browser binary: `$SESAME_CHROMIUM`, else Debian's (the real binary, not its shell
    /// wrapper, which does not pass descriptors 3 and 4 on reliably), else one on `PATH`.
    public static var executable: String? {
        let environment = ProcessInfo.processInfo.environment
        var candidates = [environment["SESAME_CHROMIUM"], "/usr/lib/chromium/chromium"].compactMap { $0 }
        for directory in (environment["PATH"] ?? "/usr/bin").split(separator: ":") {
            for name in ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"] {
                candidates.append("\(directory)/\(name)")
            }
        }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Starts the browser, or returns `nil` when there is none (see ``isRequired``).
    public static func launch() async throws -> HeadlessChromium? {
        guard let executable else {
            if isRequired { throw DevToolsPipe.CommandError(description: unavailableReason ?? "") }
            return nil
        }
        let profile = FileManager.default.temporaryDirectory
            .appendingPathComponent("sesame-chromium-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: profile, withIntermediateDirectories: true)
        // toBrowser: we write [1], the browser reads [0] as descriptor 3;
        // fromBrowser: the browser writes [1] as descriptor 4, we read [0].
        let toBrowser = try pipeAbove(10)
        let fromBrowser = try pipeAbove(10)
        let child: SpawnedChild
        do {
            child = try SpawnedChild.spawn(
                executable,
                arguments: [
                    "--headless=new", "--remote-debugging-pipe", "--no-sandbox", "--disable-gpu",
                    "--no-first-run", "--no-default-browser-check", "--disable-extensions",
                    "--disable-background-networking", "--disable-component-update", "--disable-sync",
                    "--disable-dev-shm-usage", "--password-store=basic", "--use-mock-keychain",
                    "--user-data-dir=\(profile.path)", "--window-size=800,900", "--lang=en-US", "about:blank",
                ],
                environment: ProcessInfo.processInfo.environment.filter { $0.key != "DBUS_SESSION_BUS_ADDRESS" },
                input: .file("/dev/null"), output: .file("/dev/null"), error: .file("/dev/null"),
                descriptors: [3: toBrowser.read, 4: fromBrowser.write])
        } catch {
            [toBrowser.read, toBrowser.write, fromBrowser.read, fromBrowser.write].forEach(closeDescriptor)
            throw error
        }
        closeDescriptor(toBrowser.read)
        closeDescriptor(fromBrowser.write)
        let browser = HeadlessChromium(
            devTools: DevToolsPipe(write: toBrowser.write, read: fromBrowser.read), child: child, profile: profile)
        _ = try await browser.devTools.send("Browser.getVersion")
        return browser
    }

    /// A new tab in a fresh browser context (its own cookies), with console and page events on.
    public func newTab() async throws -> BrowserTab {
        let context = try await devTools.send("Target.createBrowserContext")["browserContextId"]?.string
        var parameters: [String: JSONValue] = ["url": "about:blank"]
        if let context { parameters["browserContextId"] = .string(context) }
        let target = try await devTools.send("Target.createTarget", .object(parameters))
        guard let targetID = target["targetId"]?.string else {
            throw DevToolsPipe.CommandError(description: "Target.createTarget returned no targetId: \(target)")
        }
        let attached = try await devTools.send("Target.attachToTarget", ["targetId": .string(targetID), "flatten": true])
        guard let session = attached["sessionId"]?.string else {
            throw DevToolsPipe.CommandError(description: "Target.attachToTarget returned no sessionId: \(attached)")
        }
        let tab = BrowserTab(devTools: devTools, session: session, targetID: targetID)
        try await tab.enableEvents()
        return tab
    }

    /// Ends the browser and removes its profile.
    public func close() async {
        _ = try? await devTools.send("Browser.close")
        await devTools.close()
        child.send(SIGKILL)
        for await _ in child.termination() {}
        try? FileManager.default.removeItem(at: profile)
    }

    /// A pipe whose two descriptors are above `floor` (so they can never be a target of the
    /// child's descriptor map), close-on-exec in this process.
    private static func pipeAbove(_ floor: Int32) throws -> (read: Int32, write: Int32) {
        var descriptors: [Int32] = [0, 0]
        guard pipe(&descriptors) == 0 else {
            throw DevToolsPipe.CommandError(description: "pipe() failed: \(String(cString: strerror(errno)))")
        }
        let moved = descriptors.map { fcntl($0, F_DUPFD_CLOEXEC, floor) }
        descriptors.forEach(closeDescriptor)
        guard moved.allSatisfy({ $0 >= 0 }) else {
            throw DevToolsPipe.CommandError(description: "fcntl(F_DUPFD_CLOEXEC) failed")
        }
        return (moved[0], moved[1])
    }
}

/// `close(2)`, which the type's own `close()` hides inside it.
private func closeDescriptor(_ descriptor: Int32) { _ = close(descriptor) }

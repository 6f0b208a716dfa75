import Foundation

#if os(macOS) || os(Linux) || os(FreeBSD) || os(OpenBSD)
import ChildProcess
#endif

/// Opens URLs in the user's default browser: `/usr/bin/open` on macOS, `xdg-open` (found on
/// `PATH`) on Linux and other Unix desktops. RFC 8252 §8.12: an external user agent, never an
/// embedded web view.
///
/// When no browser can be started the error tells the user to open the URL by hand.
public struct SystemBrowserOpener: BrowserOpener {
    /// The program that opens the URL; `nil` when there is none on this system.
    let launcher: URL?

    public init() {
        self.init(launcher: Self.defaultLauncher())
    }

    /// Uses `launcher` (called with the URL as its only argument) instead of the system's.
    init(launcher: URL?) {
        self.launcher = launcher
    }

    public func open(_ url: URL) async throws {
        #if os(macOS) || os(Linux) || os(FreeBSD) || os(OpenBSD)
        guard let launcher else {
            throw BrowserOpenerError.openByHand("no browser launcher (xdg-open) was found on PATH", url: url)
        }
        // posix_spawn, not Foundation's Process, whose run() can crash on Linux with Swift
        // 6.3.1 (swift-corelibs-foundation#5472). The launcher gets none of this process's
        // descriptors (such as the loopback listener's socket) beyond standard error.
        let child: SpawnedChild
        do {
            child = try SpawnedChild.spawn(
                launcher.path, arguments: [url.absoluteString], environment: ProcessInfo.processInfo.environment,
                input: .file("/dev/null"), output: .file("/dev/null"), error: .inherited)
        } catch {
            throw BrowserOpenerError.openByHand("\(launcher.path) could not be started (\(error))", url: url)
        }
        var status: Int32 = -1
        for await termination in child.termination() { status = termination.status }
        guard status == 0 else {
            throw BrowserOpenerError.openByHand("\(launcher.lastPathComponent) failed with status \(status)", url: url)
        }
        #else
        throw BrowserOpenerError.openByHand("this platform has no system browser launcher", url: url)
        #endif
    }

    /// The program that opens a URL in the default browser, if any.
    static func defaultLauncher() -> URL? {
        #if os(macOS)
        return URL(fileURLWithPath: "/usr/bin/open")
        #elseif os(Linux) || os(FreeBSD) || os(OpenBSD)
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for directory in path.split(separator: ":") where directory.hasPrefix("/") {
            let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent("xdg-open")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
        #else
        return nil
        #endif
    }
}

import Foundation

#if os(macOS) || os(Linux) || os(FreeBSD) || os(OpenBSD)
import ChildProcess
#endif

/// Opens URLs in the user's browser: the command in `$BROWSER` when it is set (the Debian and
/// Python `webbrowser` convention: the first of a `:`-separated list; `%s` is replaced by the
/// URL, otherwise the URL is appended; run directly, never through a shell, and not awaited,
/// since a browser keeps running), else `/usr/bin/open` on macOS and `xdg-open` (found on
/// `PATH`) on Linux and other Unix desktops. RFC 8252 §8.12: an external user agent, never an
/// embedded web view.
///
/// When no browser can be started the error tells the user to open the URL by hand.
public struct SystemBrowserOpener: BrowserOpener {
    /// The program that opens the URL; `nil` when there is none on this system.
    let launcher: URL?
    /// `$BROWSER`'s first command, split into words; `nil` when unset.
    let browser: [String]?

    public init() {
        self.init(launcher: Self.defaultLauncher(), browser: Self.command(from: ProcessInfo.processInfo.environment["BROWSER"]))
    }

    /// Uses `launcher` (called with the URL as its only argument) instead of the system's.
    init(launcher: URL?, browser: [String]? = nil) {
        self.launcher = launcher
        self.browser = browser
    }

    /// The first command of a `$BROWSER` value, split into words; `nil` when unset or blank.
    static func command(from value: String?) -> [String]? {
        guard let value, let first = value.split(separator: ":").first(where: { !$0.trimmingCharacters(in: .whitespaces).isEmpty })
        else { return nil }
        let words = first.split(whereSeparator: \.isWhitespace).map(String.init)
        return words.isEmpty ? nil : words
    }

    /// A `$BROWSER` command's arguments for `url`: `%s` replaced, or the URL appended.
    static func arguments(_ words: [String], url: URL) -> [String] {
        let link = url.absoluteString
        guard words.contains(where: { $0.contains("%s") }) else { return words + [link] }
        return words.map { $0.replacingOccurrences(of: "%s", with: link) }
    }

    public func open(_ url: URL) async throws {
        #if os(macOS) || os(Linux) || os(FreeBSD) || os(OpenBSD)
        if let browser {
            // `env` finds the command on PATH; the browser is reaped, not awaited.
            let child: SpawnedChild
            do {
                child = try SpawnedChild.spawn(
                    "/usr/bin/env", arguments: Self.arguments(browser, url: url), environment: ProcessInfo.processInfo.environment,
                    input: .file("/dev/null"), output: .file("/dev/null"), error: .inherited)
            } catch {
                throw BrowserOpenerError.openByHand("$BROWSER (\(browser[0])) could not be started (\(error))", url: url)
            }
            Task { for await _ in child.termination() {} }
            return
        }
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

import ChildProcess
import Foundation
import SesameLoopback

/// Opens the authorization URL with the command in `$BROWSER` when it is set (the Debian /
/// Python `webbrowser` convention: a `:`-separated list of commands, the first one is used;
/// `%s` is replaced by the URL, otherwise the URL is appended), else with the platform's
/// ``SystemBrowserOpener``.
///
/// The command is executed directly (no shell), so the URL cannot inject shell syntax. It is
/// not awaited (a real browser keeps running). Whenever no browser can be started, the URL is
/// printed for the user to open by hand while the loopback listener keeps waiting.
struct EnvironmentBrowserOpener: BrowserOpener {
    var environment: [String: String] = ProcessInfo.processInfo.environment
    var fallback: any BrowserOpener = SystemBrowserOpener()

    func open(_ url: URL) async throws {
        guard let command = Self.command(from: environment["BROWSER"]) else {
            do {
                try await fallback.open(url)
            } catch let error as BrowserOpenerError {
                // Headless machines have no browser: the listener keeps waiting for the user.
                Terminal.progress("Could not start a browser: \(error)")
            } catch {
                Terminal.progress(
                    "Could not start a browser (\(error)); open this URL in your browser: \(url.absoluteString)")
            }
            return
        }
        let arguments = Self.arguments(command.dropFirst().map(String.init), url: url)
        // posix_spawn, not Foundation's Process (see ``SpawnedChild``); `env` finds the command
        // on PATH. Its output goes to standard error, away from the command's own output.
        let child: SpawnedChild
        do {
            child = try SpawnedChild.spawn(
                "/usr/bin/env", arguments: [String(command[0])] + arguments, environment: environment,
                input: .file("/dev/null"), output: .descriptor(2), error: .inherited)
        } catch {
            throw BrowserOpenerError(
                "$BROWSER (\(command[0])) could not be started (\(error)); open this URL in your browser: \(url.absoluteString)")
        }
        // Not awaited (a real browser keeps running), but reaped, and a failure reported.
        Task {
            for await termination in child.termination() where termination.status != 0 {
                Terminal.progress(
                    "The browser command ($BROWSER) exited with status \(termination.status); open this URL in your browser: \(url.absoluteString)")
            }
        }
    }

    /// The first command of `$BROWSER`, split into words; `nil` when unset or blank.
    static func command(from value: String?) -> [Substring]? {
        guard let value,
            let first = value.split(separator: ":").first(where: {
                !$0.trimmingCharacters(in: .whitespaces).isEmpty
            })
        else { return nil }
        let words = first.split(whereSeparator: \.isWhitespace)
        return words.isEmpty ? nil : words
    }

    static func arguments(_ words: [String], url: URL) -> [String] {
        let link = url.absoluteString
        guard words.contains(where: { $0.contains("%s") }) else { return words + [link] }
        return words.map { $0.replacingOccurrences(of: "%s", with: link) }
    }
}

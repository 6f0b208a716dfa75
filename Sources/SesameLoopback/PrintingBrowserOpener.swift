import Foundation

/// A ``BrowserOpener`` that prints the URL to standard error for the user to open, for
/// command-line use without a local browser (`--no-browser`, SSH sessions).
///
/// The loopback redirect still has to reach this machine's 127.0.0.1, so the browser must run on
/// the same host (or the port must be forwarded).
public struct PrintingBrowserOpener: BrowserOpener {
    public init() {}

    public func open(_ url: URL) async throws {
        FileHandle.standardError.write(Data("Open this URL in your browser: \(url.absoluteString)\n".utf8))
    }
}

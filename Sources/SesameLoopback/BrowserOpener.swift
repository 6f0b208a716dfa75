import Foundation

/// Shows a URL to the user in their browser. ``LoopbackBrowserAgent`` calls it once per
/// authorization; tests and `--no-browser` modes replace it.
///
/// `open(_:)` should return as soon as the browser has been asked to show the URL; the agent does
/// not wait for it after the redirect arrived.
public protocol BrowserOpener: Sendable {
    /// Asks the browser to show `url`. Throws when the browser could not be started.
    func open(_ url: URL) async throws
}

/// The browser could not be opened; ``description`` tells the user to open the URL by hand.
public struct BrowserOpenerError: Error, Sendable, CustomStringConvertible {
    /// What failed, including the URL the user should open by hand.
    public let description: String

    public init(_ description: String) {
        self.description = description
    }

    /// "`<problem>`; open this URL in your browser: `<url>`".
    static func openByHand(_ problem: String, url: URL) -> BrowserOpenerError {
        BrowserOpenerError("\(problem); open this URL in your browser: \(url.absoluteString)")
    }
}

import Foundation
import Sesame

#if os(macOS) || os(Linux) || os(FreeBSD) || os(OpenBSD)

/// A ``BrowserAgent`` for desktop and command-line apps: opens the system browser and receives the
/// redirect on a loopback HTTP listener (RFC 8252 §7.3).
///
/// - `redirectURI` passed to ``start(redirectURI:ephemeral:)`` must be `http://127.0.0.1…` or
///   `http://[::1]…`; `localhost` is refused (RFC 8252 §8.3). With a non-zero port that port is
///   bound (for providers that match redirect URIs exactly); with port 0 or none, a random free
///   port. The path is the configured one, `/callback` when it has none.
/// - The listener binds the loopback address only, never `0.0.0.0`, and exists only while the
///   request is pending (§8.3): it closes when the redirect arrives, on ``BrowserAgentSession/cancel()``,
///   on timeout, and when the session is released.
/// - The browser gets a small "you can close this tab" page; other paths get 404 (the listener
///   keeps waiting), other methods 405.
/// - `ephemeral` cannot be honoured: the system browser keeps its own cookies.
public struct LoopbackBrowserAgent: BrowserAgent {
    private let opener: any BrowserOpener
    private let timeout: TimeInterval
    private let successPage: String?

    /// - Parameters:
    ///   - opener: shows the authorization URL; ``SystemBrowserOpener`` by default,
    ///     ``PrintingBrowserOpener`` to let the user open it by hand.
    ///   - timeout: how long ``BrowserAgentSession/authorize(_:)`` waits for the browser, in seconds.
    ///   - successPage: HTML answered on the redirect instead of the built-in page.
    public init(opener: any BrowserOpener = SystemBrowserOpener(), timeout: TimeInterval = 300, successPage: String? = nil) {
        self.opener = opener
        self.timeout = max(0, timeout)
        self.successPage = successPage
    }

    public func start(redirectURI: URL, ephemeral: Bool) async throws(SesameError) -> any BrowserAgentSession {
        let redirect = try LoopbackRedirectURI(redirectURI)
        let outcome = LoopbackRedirectOutcome()
        let target = LoopbackRedirectTarget(redirect: redirect, successPage: successPage, outcome: outcome)
        let listener = try LoopbackListener.bind(host: redirect.host, port: redirect.port)
        let port = listener.port
        listener.serve { request in LoopbackRedirectHandler.answer(request, target: target, port: port) }
        return LoopbackBrowserSession(
            redirectURI: redirect.url(boundPort: port),
            listener: listener,
            outcome: outcome,
            opener: opener,
            timeout: timeout
        )
    }
}

#endif

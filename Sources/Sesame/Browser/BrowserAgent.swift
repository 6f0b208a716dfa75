import Foundation

/// Shows the authorization request to the user in an **external user agent** (RFC 8252 §8.12:
/// never an embedded web view) and hands back the redirect.
///
/// Two phases, because some agents choose the redirect URI: the loopback agent binds a port on
/// 127.0.0.1 (RFC 8252 §7.3) before the authorization URL can be built.
///
/// Implementations: `LoopbackBrowserAgent` (module SesameLoopback: desktop and command-line
/// apps), `WebAuthenticationSessionAgent` (Apple, `ASWebAuthenticationSession`),
/// ``HeadlessBrowserAgent`` (tests and scripted use), ``ExternalBrowserAgent`` (apps that
/// receive custom-scheme callbacks themselves and pass them to `handleRedirect(url:)`).
public protocol BrowserAgent: Sendable {
    /// Prepares to receive one redirect. `redirectURI` is the configured one; the returned
    /// session's ``BrowserAgentSession/redirectURI`` is what goes into the request.
    func start(redirectURI: URL, ephemeral: Bool) async throws(SesameError) -> any BrowserAgentSession
}

/// One pending authorization in a browser.
public protocol BrowserAgentSession: Sendable {
    /// The exact redirect URI to send as `redirect_uri`.
    var redirectURI: URL { get }
    /// Opens `authorizationURL` and waits for the browser to come back to ``redirectURI``;
    /// returns the full redirect URL (with its query). Throws ``SesameError/Code-swift.struct/cancelled`` when the
    /// user cancels, and a technical error on timeout.
    func authorize(_ authorizationURL: URL) async throws(SesameError) -> URL
    /// Stops listening / dismisses the browser. Safe to call more than once.
    func cancel() async
}

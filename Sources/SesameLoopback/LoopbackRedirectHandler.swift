import Foundation
import Sesame

/// What the loopback listener needs to know to answer the browser.
struct LoopbackRedirectTarget: Sendable {
    let redirect: LoopbackRedirectURI
    /// HTML answered on the redirect path.
    let successPage: String?
    let outcome: LoopbackRedirectOutcome
}

#if os(macOS) || os(Linux) || os(FreeBSD) || os(OpenBSD)

/// Answers the browser's requests on the loopback listener (RFC 8252 §7.3).
///
/// - `GET <redirect path>?…`: records the full redirect URL as the outcome, answers 200 with a
///   small "you can close this tab" page, and closes the listening socket (§8.3: listen only while
///   the request is pending).
/// - Any other path: 404, and the listener keeps waiting (browsers ask for `/favicon.ico`).
/// - Any other method: 405.
///
/// It never logs: the redirect carries the authorization code.
enum LoopbackRedirectHandler {
    static func answer(_ request: LoopbackListener.Request, target: LoopbackRedirectTarget, port: Int)
        -> LoopbackListener.Response
    {
        guard request.method == "GET" else {
            return LoopbackListener.Response(
                status: 405, reason: "Method Not Allowed", html: LoopbackPages.methodNotAllowed, headers: [("Allow", "GET")])
        }
        let (path, query) = split(request.target)
        guard path == target.redirect.path else {
            return LoopbackListener.Response(status: 404, reason: "Not Found", html: LoopbackPages.notFound)
        }
        let base = target.redirect.url(boundPort: port).absoluteString
        guard let redirectURL = URL(string: query.map { base + "?" + $0 } ?? base) else {
            return LoopbackListener.Response(status: 400, reason: "Bad Request", html: LoopbackPages.notFound)
        }
        target.outcome.finish(.success(redirectURL))
        let page = target.successPage ?? (isErrorResponse(redirectURL) ? LoopbackPages.notSignedIn : LoopbackPages.signedIn)
        // The one redirect has arrived: stop listening (RFC 8252 §8.3).
        return LoopbackListener.Response(status: 200, reason: "OK", html: page, closesListener: true)
    }

    /// Splits an origin-form request target into path and raw query.
    static func split(_ uri: String) -> (path: String, query: String?) {
        guard let mark = uri.firstIndex(of: "?") else { return (uri, nil) }
        return (String(uri[..<mark]), String(uri[uri.index(after: mark)...]))
    }

    /// Whether the redirect is an OAuth error response (RFC 6749 §4.1.2.1).
    static func isErrorResponse(_ url: URL) -> Bool {
        URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?.contains { $0.name == "error" } ?? false
    }
}

#endif

import Foundation

/// The `Content-Security-Policy` of the hosted pages (CSP Level 3): nothing loads but inline
/// styles, no scripts, no framing (RFC 9700 §4.16), no `<base>`, and forms post only to this
/// origin — plus, on a page whose form ends in a redirect to a client, that client's registered
/// redirect target. A page that carries an abuse challenge (``ChallengeScripts``) also loads
/// this origin's own challenge script and its Web Worker (`script-src 'self'; worker-src
/// 'self'`), and a page that offers passkeys its passkey script and the fetch of its options
/// (`connect-src 'self'`): no inline script, no `eval`, nothing from elsewhere.
///
/// Why the target is named: CSP3 §6.4.1 (`form-action`) applies to every navigation a form
/// submission causes, **redirects included**, and Chromium enforces it so. `POST /login` → 303
/// to the client's `redirect_uri` is such a redirect: with `form-action 'self'` alone Chromium
/// blocks it, the code is issued but never reaches the app. So the login, MFA and sign-out
/// confirmation pages add the one URI they were rendered for — already validated by exact
/// match against the client's registration (RFC 9700 §4.1.3, RP-Initiated Logout §3) — as a
/// source expression, and nothing else.
struct ContentSecurityPolicy: Sendable, Equatable {
    /// Source expressions allowed as form targets besides `'self'`.
    private(set) var formTargets: [String] = []
    /// Whether the page may run this origin's scripts and workers (the challenge solver).
    var allowsOwnScripts = false
    /// Whether the page's scripts may fetch from this origin (the passkey options,
    /// ``PasskeyScripts``).
    var allowsOwnConnections = false

    /// The policy with no form target but this origin.
    static let strict = ContentSecurityPolicy()

    /// The policy for a page whose form may end in a redirect to each of `uris` (registered,
    /// exactly matched redirect URIs). A URI that yields no safe source expression is left out,
    /// so the policy can only get stricter.
    static func allowingRedirects(to uris: [String]) -> ContentSecurityPolicy {
        var policy = ContentSecurityPolicy()
        for uri in uris {
            if let source = sourceExpression(for: uri), !policy.formTargets.contains(source) {
                policy.formTargets.append(source)
            }
        }
        return policy
    }

    /// The header value.
    var headerValue: String {
        let formAction = (["'self'"] + formTargets).joined(separator: " ")
        var scripts = allowsOwnScripts ? "script-src 'self'; worker-src 'self'; " : ""
        if allowsOwnConnections { scripts += "connect-src 'self'; " }
        return "default-src 'none'; style-src 'unsafe-inline'; \(scripts)form-action \(formAction); "
            + "frame-ancestors 'none'; base-uri 'none'"
    }

    /// The narrowest CSP3 §2.3.1 source expression that matches `uri`:
    /// - `http`/`https`: a host-source with scheme, host and the port the URI uses
    ///   (`http://127.0.0.1:53682`), path left out (a path in a host-source is ignored after a
    ///   redirect anyway, CSP3 §6.7.2.13);
    /// - a private-use scheme (RFC 8252 §7.1, `com.example.app:/callback`): a scheme-source
    ///   (`com.example.app:`).
    ///
    /// Only characters the grammar allows are let through, so a value can never end the
    /// directive or add another one.
    static func sourceExpression(for uri: String) -> String? {
        guard let components = URLComponents(string: uri), let scheme = components.scheme?.lowercased(),
            isSchemeName(scheme)
        else { return nil }
        guard scheme == "http" || scheme == "https" else { return "\(scheme):" }
        guard var host = components.percentEncodedHost?.lowercased(), !host.isEmpty else { return nil }
        if host.contains(":"), !host.hasPrefix("[") { host = "[\(host)]" }  // IPv6 literal
        guard host.unicodeScalars.allSatisfy(isHostCharacter) else { return nil }
        let port = components.port.map { ":\($0)" } ?? ""
        return "\(scheme)://\(host)\(port)"
    }

    /// RFC 3986 §3.1: `ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )`.
    private static func isSchemeName(_ scheme: String) -> Bool {
        guard let first = scheme.unicodeScalars.first, isLetter(first) else { return false }
        return scheme.unicodeScalars.allSatisfy { isLetter($0) || isDigit($0) || "+-.".unicodeScalars.contains($0) }
    }

    /// Letters, digits, `-`, `.` and the brackets and colons of an IPv6 literal.
    private static func isHostCharacter(_ scalar: Unicode.Scalar) -> Bool {
        isLetter(scalar) || isDigit(scalar) || "-.[]:".unicodeScalars.contains(scalar)
    }

    private static func isLetter(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
    }

    private static func isDigit(_ scalar: Unicode.Scalar) -> Bool { ("0"..."9").contains(scalar) }
}

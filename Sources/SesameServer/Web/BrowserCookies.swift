import Foundation
import Hummingbird

/// The two cookies of the hosted pages.
///
/// - `sesame_session`: the browser SSO session (a random 256-bit id; the store keeps only its
///   digest). `HttpOnly`, `SameSite=Lax` so that the top-level redirect from an app to
///   `/authorize` carries it.
/// - `sesame_csrf`: the pre-session the forms' CSRF tokens are bound to (``CSRFProtection``),
///   `HttpOnly`, `SameSite=Strict`.
///
/// Both are `Secure` unless the issuer is a loopback host (plain-http development). With an
/// `https` issuer both names carry the `__Host-` prefix (RFC 6265bis §4.1.3.2): the browser
/// accepts them only from this host, `Secure`, with `Path=/` and no `Domain`, so a sibling
/// subdomain can neither set nor shadow them.
struct BrowserCookies: Sendable {
    static let baseSessionName = "sesame_session"
    static let baseCSRFName = "sesame_csrf"
    static let hostPrefix = "__Host-"

    let secure: Bool
    /// The session cookie's name (`__Host-sesame_session` with an https issuer).
    let sessionName: String
    /// The CSRF pre-session cookie's name (`__Host-sesame_csrf` with an https issuer).
    let csrfName: String

    init(issuer: URL) {
        let host = issuer.host?.lowercased() ?? ""
        let loopback = host == "127.0.0.1" || host == "::1" || host == "[::1]" || host == "localhost"
        let https = issuer.scheme?.lowercased() == "https"
        secure = https || !loopback
        let prefix = https ? Self.hostPrefix : ""
        sessionName = prefix + Self.baseSessionName
        csrfName = prefix + Self.baseCSRFName
    }

    func session(_ value: String, maxAge: Int) -> String {
        cookie(sessionName, value, maxAge: maxAge, sameSite: "Lax")
    }

    func clearSession() -> String { cookie(sessionName, "", maxAge: 0, sameSite: "Lax") }

    func csrf(_ value: String) -> String { cookie(csrfName, value, maxAge: 3600, sameSite: "Strict") }

    private func cookie(_ name: String, _ value: String, maxAge: Int, sameSite: String) -> String {
        var text = "\(name)=\(value); Path=/; Max-Age=\(maxAge); HttpOnly; SameSite=\(sameSite)"
        if secure { text += "; Secure" }
        return text
    }

    /// The session cookie's value in the request, if any.
    func sessionID(in request: Request) -> String? { Self.value(sessionName, in: request) }

    /// The value of cookie `name` in the request, if any.
    static func value(_ name: String, in request: Request) -> String? {
        guard let value = request.cookies[name]?.value, !value.isEmpty else { return nil }
        return value
    }
}

import Foundation
import Hummingbird

/// The two cookies of the hosted pages.
///
/// - `sesame_session`: the browser SSO session (a random 256-bit id; the store keeps only its
///   digest). `HttpOnly`, `SameSite=Lax` so that the top-level redirect from an app to
///   `/authorize` carries it.
/// - `sesame_csrf`: the double-submit CSRF token of the login form, `HttpOnly`,
///   `SameSite=Strict`.
///
/// Both are `Secure` unless the issuer is a loopback host (plain-http development).
struct BrowserCookies: Sendable {
    static let sessionName = "sesame_session"
    static let csrfName = "sesame_csrf"

    let secure: Bool

    init(issuer: URL) {
        let host = issuer.host?.lowercased() ?? ""
        let loopback = host == "127.0.0.1" || host == "::1" || host == "[::1]" || host == "localhost"
        self.secure = issuer.scheme == "https" || !loopback
    }

    func session(_ value: String, maxAge: Int) -> String {
        cookie(Self.sessionName, value, maxAge: maxAge, sameSite: "Lax")
    }

    func clearSession() -> String { cookie(Self.sessionName, "", maxAge: 0, sameSite: "Lax") }

    func csrf(_ value: String) -> String { cookie(Self.csrfName, value, maxAge: 3600, sameSite: "Strict") }

    private func cookie(_ name: String, _ value: String, maxAge: Int, sameSite: String) -> String {
        var text = "\(name)=\(value); Path=/; Max-Age=\(maxAge); HttpOnly; SameSite=\(sameSite)"
        if secure { text += "; Secure" }
        return text
    }

    /// The value of cookie `name` in the request, if any.
    static func value(_ name: String, in request: Request) -> String? {
        guard let value = request.cookies[name]?.value, !value.isEmpty else { return nil }
        return value
    }
}

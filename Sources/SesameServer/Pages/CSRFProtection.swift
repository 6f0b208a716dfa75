import Hummingbird
import SesameProtocol

/// Double-submit CSRF protection of the login form (OWASP CSRF cheat sheet): the same random
/// 256-bit token is set in the `sesame_csrf` cookie and in a hidden form field; the POST is
/// accepted only when both are present and equal (constant-time comparison).
enum CSRFProtection {
    static let fieldName = "csrf_token"

    /// The token to embed in a new form: the browser's existing one when well-formed (several
    /// tabs keep working), otherwise a fresh one. `isNew` says whether a cookie must be set.
    static func token(for request: Request) -> (value: String, isNew: Bool) {
        if let existing = BrowserCookies.value(BrowserCookies.csrfName, in: request),
            existing.utf8.count == 43, Base64URL.decode(existing)?.count == 32
        {
            return (existing, false)
        }
        return (SecureRandom.token(), true)
    }

    /// `true` when the submitted form field matches the cookie.
    static func verify(request: Request, form: [String: String]) -> Bool {
        guard let cookie = BrowserCookies.value(BrowserCookies.csrfName, in: request),
            let field = form[fieldName], !field.isEmpty
        else { return false }
        return ConstantTime.equals(cookie, field)
    }
}

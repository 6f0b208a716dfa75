import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import SesameProtocol

/// CSRF protection of the hosted forms (OWASP CSRF cheat sheet, "Signed Double-Submit Cookie"):
/// the `sesame_csrf` cookie holds a random 256-bit pre-session id, and each form carries
/// `csrf_token = base64url(HMAC-SHA-256(key, "sesame csrf v1" ‖ pre-session))`, with a key derived
/// from the deployment's master key (HKDF, RFC 5869), so every process accepts it. A POST is
/// accepted only when the field is the MAC of the cookie (constant-time comparison): a token the
/// server did not mint for this browser's pre-session is refused, even when cookie and field
/// agree (`sesame_csrf=x` with `csrf_token=x`).
///
/// With an `https` issuer the cookie is `__Host-sesame_csrf` (RFC 6265bis §4.1.3.2: `Secure`,
/// `Path=/`, no `Domain`), so a sibling subdomain cannot plant one (login CSRF through cookie
/// tossing).
struct CSRFProtection: Sendable {
    static let fieldName = "csrf_token"

    /// A form's token, and the cookie to set when the browser had no pre-session yet.
    struct Token: Sendable {
        /// The form field's value (also what proof-of-work and passkey challenges of the page
        /// are bound to).
        let value: String
        /// The new pre-session id to send in `Set-Cookie`, `nil` when the browser has one.
        let newCookie: String?
        /// The digest of the pre-session the form belongs to: what server-side state of this
        /// browser (a held authorization request, ``PendingAuthorizations``) is bound to.
        let browserBinding: String
    }

    let cookies: BrowserCookies
    private let key: SymmetricKey

    init(masterKey: SymmetricKey, cookies: BrowserCookies) {
        key = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: masterKey, info: Data("sesame csrf mac v1".utf8), outputByteCount: 32)
        self.cookies = cookies
    }

    /// The token to embed in a new form: bound to the browser's existing pre-session when it has a
    /// well-formed one (several tabs keep working), otherwise to a fresh one.
    func token(for request: Request) -> Token {
        if let existing = preSession(in: request) {
            return Token(value: mac(existing), newCookie: nil, browserBinding: Self.binding(existing))
        }
        let fresh = SecureRandom.token()
        return Token(value: mac(fresh), newCookie: fresh, browserBinding: Self.binding(fresh))
    }

    /// The digest of the request's pre-session, `nil` when it has none: the browser binding
    /// of the state a page of this browser may continue (``Token/browserBinding``).
    func browserBinding(of request: Request) -> String? {
        preSession(in: request).map(Self.binding)
    }

    private static func binding(_ preSession: String) -> String { SecretDigest.of("sesame pre-session v1:" + preSession) }

    /// `true` when the submitted field is the token this server minted for the request's
    /// pre-session cookie.
    func verify(request: Request, form: [String: String]) -> Bool {
        guard let preSession = preSession(in: request), let field = form[Self.fieldName], !field.isEmpty else {
            return false
        }
        return ConstantTime.equals(mac(preSession), field)
    }

    /// The `Set-Cookie` field for a token's new pre-session, if it has one.
    func setCookie(_ token: Token) -> HTTPField? {
        token.newCookie.map { HTTPField(name: .setCookie, value: cookies.csrf($0)) }
    }

    private func preSession(in request: Request) -> String? {
        guard let value = BrowserCookies.value(cookies.csrfName, in: request),
            value.utf8.count == 43, Base64URL.decode(value)?.count == 32
        else { return nil }
        return value
    }

    private func mac(_ preSession: String) -> String {
        Base64URL.encode(Data(HMAC<SHA256>.authenticationCode(for: Data(("sesame csrf v1:" + preSession).utf8), using: key)))
    }
}

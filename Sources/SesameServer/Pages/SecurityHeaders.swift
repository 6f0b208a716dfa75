import HTTPTypes
import Hummingbird

/// Headers on every HTML response: no framing (RFC 9700 §4.16: CSP `frame-ancestors` plus
/// `X-Frame-Options`), no scripts or third-party resources (RFC 9700 §4.2.4), forms only to
/// this origin or the registered URI the page's form ends at (``ContentSecurityPolicy``), no
/// referrer leakage and no caching of pages that carry CSRF tokens.
enum SecurityHeaders {
    static func apply(to headers: inout HTTPFields, policy: ContentSecurityPolicy = .strict) {
        headers[.contentSecurityPolicy] = policy.headerValue
        headers[HTTPField.Name("X-Frame-Options")!] = "DENY"
        headers[HTTPField.Name("Referrer-Policy")!] = "no-referrer"
        headers[HTTPField.Name("X-Content-Type-Options")!] = "nosniff"
        headers[.cacheControl] = "no-store"
        headers[HTTPField.Name("Pragma")!] = "no-cache"
    }
}

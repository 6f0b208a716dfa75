import HTTPTypes
import Hummingbird

/// Headers on every HTML response: no framing (RFC 9700 §4.16: CSP `frame-ancestors` plus
/// `X-Frame-Options`), no scripts or third-party resources (RFC 9700 §4.2.4), forms only to
/// this origin or the registered URI the page's form ends at (``ContentSecurityPolicy``), no
/// referrer leakage and no caching of pages that carry CSRF tokens.
enum SecurityHeaders {
    static func apply(to headers: inout HTTPFields, policy: ContentSecurityPolicy = .strict) {
        headers[.contentSecurityPolicy] = policy.headerValue
        headers[.xFrameOptions] = "DENY"
        headers[.referrerPolicy] = "no-referrer"
        headers[.xContentTypeOptions] = "nosniff"
        headers[.cacheControl] = "no-store"
        headers[.pragma] = "no-cache"
    }
}

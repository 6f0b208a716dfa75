import HTTPTypes

/// The header names Sesame sets or reads that `HTTPTypes` does not name, spelled once and
/// checked at compile time instead of `HTTPField.Name("…")!` at each use.
extension HTTPField.Name {
    /// RFC 7034: framing by other origins (`DENY`), beside CSP `frame-ancestors`.
    static let xFrameOptions = Self("X-Frame-Options")!
    /// Where the next page of an admin API export starts (issue #47).
    static let sesameNextCursor = Self("Sesame-Next-Cursor")!
    /// W3C Referrer Policy.
    static let referrerPolicy = Self("Referrer-Policy")!
    /// WHATWG Fetch §3.6: no MIME sniffing (`nosniff`).
    static let xContentTypeOptions = Self("X-Content-Type-Options")!
    /// RFC 9111 §5.4: `no-cache` for HTTP/1.0 caches.
    static let pragma = Self("Pragma")!
    /// The de facto proxy header (RFC 7239 §1 describes it); read only from trusted proxies.
    static let xForwardedFor = Self("X-Forwarded-For")!
    /// draft-ietf-httpapi-ratelimit-headers: the quota and window of a limit.
    static let rateLimitPolicy = Self("RateLimit-Policy")!
    /// draft-ietf-httpapi-ratelimit-headers: what is left of it and when it resets.
    static let rateLimit = Self("RateLimit")!
    /// RFC 9449 §4.1: the DPoP proof of a request.
    static let dpop = Self("DPoP")!
    /// RFC 9449 §8.1: a server-provided nonce for DPoP proofs.
    static let dpopNonce = Self("DPoP-Nonce")!
}

import Foundation

/// An error carried in an authorization redirect (RFC 6749 §4.1.2.1), read from the query of the
/// redirect URI together with `state` and the RFC 9207 `iss`.
public struct AuthorizationErrorResponse: Sendable, Equatable, Error {
    /// RFC 6749 §4.1.2.1 `error`, e.g. `access_denied` or `login_required` (OIDC Core §3.1.2.6).
    public var error: String
    /// RFC 6749 §4.1.2.1 `error_description`: text for developers.
    public var errorDescription: String?
    /// RFC 6749 §4.1.2.1 `error_uri`: a page about the error.
    public var errorURI: String?
    /// RFC 6749 §4.1.2.1 `state`, echoed from the request; check it before trusting the error.
    public var state: String?
    /// RFC 9207 §2 `iss`: the issuer that sent the response; it must be the expected one.
    public var issuer: String?

    /// An error response with the redirect's parameters.
    public init(
        error: String, errorDescription: String? = nil, errorURI: String? = nil,
        state: String? = nil, issuer: String? = nil
    ) {
        self.error = error
        self.errorDescription = errorDescription
        self.errorURI = errorURI
        self.state = state
        self.issuer = issuer
    }
}

import Foundation

/// An error carried in an authorization redirect (RFC 6749 §4.1.2.1), read from the query of the
/// redirect URI together with `state` and the RFC 9207 `iss`.
public struct AuthorizationErrorResponse: Sendable, Equatable, Error {
    public var error: String
    public var errorDescription: String?
    public var errorURI: String?
    public var state: String?
    public var issuer: String?

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

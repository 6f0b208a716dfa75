import Foundation
import SesameProtocol

/// A browser SSO session behind the session cookie (the cookie holds the random id; the store
/// holds its digest).
public struct BrowserSessionRecord: Sendable, Codable, Equatable {
    public var idDigest: String
    /// Public, non-secret session id used as the OIDC `sid` claim.
    public var sid: String
    public var authentication: AuthenticationContext
    public var createdAt: Date
    public var expiresAt: Date

    public init(
        idDigest: String, sid: String, authentication: AuthenticationContext, createdAt: Date,
        expiresAt: Date
    ) {
        self.idDigest = idDigest
        self.sid = sid
        self.authentication = authentication
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }
}

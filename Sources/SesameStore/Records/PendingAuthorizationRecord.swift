import Foundation

/// One authorization request held on the server for a browser (``PendingAuthorizationStore``).
public struct PendingAuthorizationRecord: Sendable, Equatable {
    /// SHA-256 of the reference the pages carry (``SecretDigest``): the reference itself is not kept.
    public var digest: String
    /// The digest of the browser's pre-session cookie the request is bound to: a reference
    /// copied to another browser finds nothing.
    public var browserBinding: String
    public var clientID: String
    /// The authorization request parameters exactly as accepted (as pushed, for a pushed
    /// request), `client_id` included.
    public var parameters: [String: String]
    /// Whether the request came through `/par` (RFC 9126).
    public var pushed: Bool
    public var expiresAt: Date

    public init(
        digest: String, browserBinding: String, clientID: String, parameters: [String: String], pushed: Bool,
        expiresAt: Date
    ) {
        self.digest = digest
        self.browserBinding = browserBinding
        self.clientID = clientID
        self.parameters = parameters
        self.pushed = pushed
        self.expiresAt = expiresAt
    }
}

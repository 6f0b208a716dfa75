import Foundation

/// RFC 9126 §2.2: the answer to a pushed authorization request (HTTP 201): the `request_uri`
/// to send to `/authorize` with the `client_id`, and how long it stays usable.
public struct PushedAuthorizationResponse: Codable, Sendable, Equatable {
    /// `urn:ietf:params:oauth:request_uri:<random>` (RFC 9126 §2.2), usable once.
    public var requestURI: String
    /// Seconds until `requestURI` expires.
    public var expiresIn: Int

    /// A response naming `requestURI`, valid for `expiresIn` seconds.
    public init(requestURI: String, expiresIn: Int) {
        self.requestURI = requestURI
        self.expiresIn = expiresIn
    }

    enum CodingKeys: String, CodingKey {
        case requestURI = "request_uri"
        case expiresIn = "expires_in"
    }

    /// The URN prefix of every `request_uri` Sesame issues (RFC 9126 §2.2 suggests it).
    public static let requestURIPrefix = "urn:ietf:params:oauth:request_uri:"
}

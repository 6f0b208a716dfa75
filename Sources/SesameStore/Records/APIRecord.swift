import Foundation

/// A registered API: a protected resource this server issues access tokens for (RFC 8707 §2,
/// RFC 9728 §2). Clients name its ``identifier`` in the `resource` parameter; the access tokens
/// they get carry it in `aud` (RFC 9068 §3) and only the ``scopes`` it defines.
public struct APIRecord: Sendable, Codable, Equatable {
    /// The API's identifier: an absolute `https` URI without a fragment (RFC 8707 §2), usually
    /// its public URL, exactly as resource servers compare `aud`.
    public var identifier: String
    /// A display name for the console and the CLI.
    public var name: String
    /// The scopes the API defines (RFC 9728 `scopes_supported`): the only ones its tokens carry.
    public var scopes: [String]
    public var createdAt: Date

    public init(identifier: String, name: String, scopes: [String], createdAt: Date = Date()) {
        self.identifier = identifier
        self.name = name
        self.scopes = scopes
        self.createdAt = createdAt
    }
}

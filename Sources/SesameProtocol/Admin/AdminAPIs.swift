import Foundation

/// A registered API (RFC 8707 resource) in the admin API (`GET /admin/api/apis`; issue #49):
/// what clients name in `resource` and their tokens carry in `aud`.
public struct AdminAPI: Codable, Sendable, Equatable {
    /// The API's identifier: an absolute https URI, its tokens' `aud`.
    public var identifier: String
    /// The display name.
    public var name: String
    /// The scopes the API defines: the only ones its tokens carry.
    public var scopes: [String]
    /// When it was registered (seconds since 1970).
    public var createdAt: Int

    /// An API with every member given.
    public init(identifier: String, name: String, scopes: [String], createdAt: Int) {
        self.identifier = identifier
        self.name = name
        self.scopes = scopes
        self.createdAt = createdAt
    }

    enum CodingKeys: String, CodingKey {
        case identifier, name, scopes
        case createdAt = "created_at"
    }
}

/// `GET /admin/api/apis`: every registered API, by identifier.
public struct AdminAPIList: Codable, Sendable, Equatable {
    /// The APIs.
    public var apis: [AdminAPI]

    /// A list of `apis`.
    public init(apis: [AdminAPI]) { self.apis = apis }
}

/// `POST /admin/api/apis` (register: `identifier` required) and `POST /admin/api/apis/{identifier}`
/// (change): the members to set; absent ones stay.
public struct AdminAPISpec: Codable, Sendable, Equatable {
    /// The API's identifier (register only).
    public var identifier: String?
    /// The display name.
    public var name: String?
    /// The scopes the API defines (replace the list).
    public var scopes: [String]?

    /// A registration or change of the given members.
    public init(identifier: String? = nil, name: String? = nil, scopes: [String]? = nil) {
        self.identifier = identifier
        self.name = name
        self.scopes = scopes
    }
}

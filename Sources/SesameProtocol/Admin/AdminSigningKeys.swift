import Foundation

/// A signing key as `GET /admin/api/keys` lists it; never the private key. Times are seconds
/// since 1970.
public struct AdminSigningKey: Codable, Sendable, Equatable {
    /// The key id (`kid`).
    public var kid: String
    /// `RS256` or `ES256`.
    public var algorithm: String
    /// When it was made.
    public var createdAt: Int
    /// When it starts signing.
    public var activatesAt: Int
    /// When it stopped signing; absent while it signs.
    public var retiredAt: Int?
    /// When it leaves the key set; absent while it signs.
    public var expiresAt: Int?

    /// A key with every member given.
    public init(kid: String, algorithm: String, createdAt: Int, activatesAt: Int, retiredAt: Int?, expiresAt: Int?) {
        self.kid = kid
        self.algorithm = algorithm
        self.createdAt = createdAt
        self.activatesAt = activatesAt
        self.retiredAt = retiredAt
        self.expiresAt = expiresAt
    }

    enum CodingKeys: String, CodingKey {
        case kid, algorithm
        case createdAt = "created_at"
        case activatesAt = "activates_at"
        case retiredAt = "retired_at"
        case expiresAt = "expires_at"
    }
}

/// `GET /admin/api/keys`, `POST /admin/api/keys/rotate` and `…/{kid}/retire`: the signing keys, newest first.
public struct AdminSigningKeyList: Codable, Sendable, Equatable {
    /// The keys.
    public var keys: [AdminSigningKey]

    /// A list of `keys`.
    public init(keys: [AdminSigningKey]) { self.keys = keys }
}

/// `POST /admin/api/keys/{kid}/retire`: stop signing with a key. By default it stays in the key
/// set for the longest token lifetime, so tokens it signed keep working; `immediately` removes it
/// at once (a key believed compromised: every token it signed fails from then on).
public struct AdminKeyRetirement: Codable, Sendable, Equatable {
    /// Leave the key set now rather than after the overlap.
    public var immediately: Bool?

    /// A retirement, `immediately` or after the overlap.
    public init(immediately: Bool? = nil) { self.immediately = immediately }
}

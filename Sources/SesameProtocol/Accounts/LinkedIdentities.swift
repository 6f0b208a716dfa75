import Foundation

/// A provider's identity linked to the user's account (`GET /api/identities`,
/// docs/federation.md): signing in with that provider's token for that subject reaches the
/// account.
public struct LinkedIdentity: Codable, Sendable, Equatable {
    /// The provider's registered name.
    public var provider: String
    /// The provider's `sub`.
    public var subject: String
    /// The email the provider gave when the link was made.
    public var email: String?
    /// Seconds since 1970.
    public var linkedAt: Int

    /// A linked identity as `GET /api/identities` lists it; `linkedAt` is seconds since 1970.
    public init(provider: String, subject: String, email: String? = nil, linkedAt: Int) {
        self.provider = provider
        self.subject = subject
        self.email = email
        self.linkedAt = linkedAt
    }

    enum CodingKeys: String, CodingKey {
        case provider, subject, email
        case linkedAt = "linked_at"
    }
}

/// `GET /api/identities` answer, oldest link first.
public struct LinkedIdentityList: Codable, Sendable, Equatable {
    /// The account's linked identities, oldest link first.
    public var identities: [LinkedIdentity]

    /// A list of `identities`.
    public init(identities: [LinkedIdentity]) {
        self.identities = identities
    }
}

import Foundation

/// A federation provider in the admin API (`GET /admin/api/providers`, issue #47,
/// docs/federation.md): what `sesame provider list` shows, and whether a broker secret is kept
/// (never the secret).
public struct AdminFederationProvider: Codable, Sendable, Equatable {
    /// The name apps use for it (`subject_issuer`).
    public var id: String
    /// `oidc`, `google`, `apple` or `facebook`.
    public var kind: String
    /// The `iss` its tokens carry.
    public var issuer: String
    /// The client ids its tokens may be issued to.
    public var audiences: [String]
    /// Where its keys are.
    public var jwksURI: String?
    /// The claim a token must carry.
    public var requiredClaim: String
    /// Whether an email address the provider did not verify is taken.
    public var allowUnverifiedEmail: Bool
    /// Whether an identity links to an existing account with its verified email address.
    public var linkByEmail: Bool
    /// The name shown on the login page.
    public var displayName: String
    /// The client Sesame has at the provider for the hosted "Continue with …" sign-in.
    public var brokerClientID: String?
    /// Whether a broker client secret is kept (sealed; never shown).
    public var hasBrokerSecret: Bool
    /// When it was registered (seconds since 1970).
    public var createdAt: Int

    /// A value with every member given.
    public init(
        id: String, kind: String, issuer: String, audiences: [String], jwksURI: String?, requiredClaim: String,
        allowUnverifiedEmail: Bool, linkByEmail: Bool, displayName: String, brokerClientID: String?, hasBrokerSecret: Bool,
        createdAt: Int
    ) {
        self.id = id
        self.kind = kind
        self.issuer = issuer
        self.audiences = audiences
        self.jwksURI = jwksURI
        self.requiredClaim = requiredClaim
        self.allowUnverifiedEmail = allowUnverifiedEmail
        self.linkByEmail = linkByEmail
        self.displayName = displayName
        self.brokerClientID = brokerClientID
        self.hasBrokerSecret = hasBrokerSecret
        self.createdAt = createdAt
    }

    enum CodingKeys: String, CodingKey {
        case id, kind, issuer, audiences
        case jwksURI = "jwks_uri"
        case requiredClaim = "required_claim"
        case allowUnverifiedEmail = "allow_unverified_email"
        case linkByEmail = "link_by_email"
        case displayName = "display_name"
        case brokerClientID = "broker_client_id"
        case hasBrokerSecret = "has_broker_secret"
        case createdAt = "created_at"
    }
}

/// `GET /admin/api/providers`.
public struct AdminFederationProviderList: Codable, Sendable, Equatable {
    /// The providers, by id.
    public var providers: [AdminFederationProvider]

    /// A list of `providers`.
    public init(providers: [AdminFederationProvider]) { self.providers = providers }
}

/// `POST /admin/api/providers` (register; `id` and `kind` required) and
/// `POST /admin/api/providers/{id}` (change the settings given; the others stay).
public struct AdminFederationProviderSpec: Codable, Sendable, Equatable {
    /// The name apps use for it; required to register.
    public var id: String?
    /// `oidc`, `google`, `apple` or `facebook`; required to register.
    public var kind: String?
    /// The `iss` its tokens carry (known for google, apple and facebook).
    public var issuer: String?
    /// The client ids its tokens may be issued to.
    public var audiences: [String]?
    /// Where its keys are (known for google and apple).
    public var jwksURI: String?
    /// The claim a token must carry (default `email`).
    public var requiredClaim: String?
    /// Take email addresses the provider did not verify.
    public var allowUnverifiedEmail: Bool?
    /// Link to an existing account with the same verified email address.
    public var linkByEmail: Bool?
    /// The name on the login page.
    public var displayName: String?
    /// The client Sesame has at the provider ("Continue with …").
    public var brokerClientID: String?
    /// Its secret: write-only, sealed before it is stored.
    public var brokerClientSecret: String?

    /// A spec with the given settings.
    public init(
        id: String? = nil, kind: String? = nil, issuer: String? = nil, audiences: [String]? = nil, jwksURI: String? = nil,
        requiredClaim: String? = nil, allowUnverifiedEmail: Bool? = nil, linkByEmail: Bool? = nil, displayName: String? = nil,
        brokerClientID: String? = nil, brokerClientSecret: String? = nil
    ) {
        self.id = id
        self.kind = kind
        self.issuer = issuer
        self.audiences = audiences
        self.jwksURI = jwksURI
        self.requiredClaim = requiredClaim
        self.allowUnverifiedEmail = allowUnverifiedEmail
        self.linkByEmail = linkByEmail
        self.displayName = displayName
        self.brokerClientID = brokerClientID
        self.brokerClientSecret = brokerClientSecret
    }

    enum CodingKeys: String, CodingKey {
        case id, kind, issuer, audiences
        case jwksURI = "jwks_uri"
        case requiredClaim = "required_claim"
        case allowUnverifiedEmail = "allow_unverified_email"
        case linkByEmail = "link_by_email"
        case displayName = "display_name"
        case brokerClientID = "broker_client_id"
        case brokerClientSecret = "broker_client_secret"
    }
}

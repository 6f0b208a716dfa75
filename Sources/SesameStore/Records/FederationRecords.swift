import Foundation
import SesameProtocol

/// A registered federation provider (docs/federation.md): whose ID tokens the server accepts,
/// how it checks them, and how their accounts meet local ones.
public struct FederationProviderRecord: Sendable, Codable, Equatable {
    /// The name apps use (`subject_issuer`), e.g. `google` or `acme-id`.
    public var id: String
    public var kind: Federation.Kind
    /// The `iss` its tokens carry, exactly.
    public var issuer: String
    /// Accepted `aud` values: the vendor's client id, the app's bundle id for Apple.
    public var audiences: [String]
    /// Where its keys are published; or ``publicKeyPEM``.
    public var jwksURI: String?
    /// A fixed public key (PEM) instead of a JWKS.
    public var publicKeyPEM: String?
    /// The claim a token must carry to be accepted (`email` by default).
    public var requiredClaim: String
    /// Whether a token whose `email_verified` is not true may still create an account (never
    /// link to an existing one).
    public var allowUnverifiedEmail: Bool
    /// Whether a verified email of this provider links to a local account with the same verified
    /// email (the operator trusts the provider to have verified it).
    public var linkByEmail: Bool
    public var displayName: String
    public var createdAt: Date
    /// Browser sign-in through the provider ("Continue with …" on the hosted login page): the
    /// client id Sesame has at the provider, and its secret sealed with the master key. `nil`:
    /// the provider only takes tokens apps already hold.
    public var brokerClientID: String? = nil
    public var brokerClientSecretSealed: String? = nil
    /// Facebook: the token inspection endpoint (`debug_token`) and the profile endpoint
    /// (`/me`); the app id and secret are ``brokerClientID`` and its sealed secret.
    public var inspectionEndpoint: String? = nil
    public var profileEndpoint: String? = nil

    /// Whether the hosted login page offers the provider (an OpenID provider with a broker
    /// client; Facebook Login is not one).
    public var brokers: Bool { brokerClientID != nil && brokerClientSecretSealed != nil && kind != .facebook }

    public init(
        id: String, kind: Federation.Kind, issuer: String, audiences: [String], jwksURI: String? = nil,
        publicKeyPEM: String? = nil, requiredClaim: String = "email", allowUnverifiedEmail: Bool = false,
        linkByEmail: Bool = false, displayName: String? = nil, createdAt: Date = Date()
    ) {
        self.id = id
        self.kind = kind
        self.issuer = issuer
        self.audiences = audiences
        self.jwksURI = jwksURI
        self.publicKeyPEM = publicKeyPEM
        self.requiredClaim = requiredClaim
        self.allowUnverifiedEmail = allowUnverifiedEmail
        self.linkByEmail = linkByEmail
        self.displayName = displayName ?? id
        self.createdAt = createdAt
    }
}

/// A local account's link to a provider's subject: federated sign-in finds the account by
/// (provider, `sub`), never by email alone.
public struct FederatedIdentityRecord: Sendable, Codable, Equatable {
    public var providerID: String
    public var subject: String
    public var userID: String
    /// The email the provider gave when the link was made (for display).
    public var email: String?
    public var linkedAt: Date

    public init(providerID: String, subject: String, userID: String, email: String?, linkedAt: Date) {
        self.providerID = providerID
        self.subject = subject
        self.userID = userID
        self.email = email
        self.linkedAt = linkedAt
    }
}

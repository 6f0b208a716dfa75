import SesameStore
import Foundation
import SesameProtocol

/// One federation provider of the seed file (docs/federation.md); keys as `sesame provider add`.
public struct ProviderSeed: Codable, Sendable, Equatable {
    public var id: String
    /// `oidc` (default), `google` or `apple`.
    public var kind: String?
    public var issuer: String?
    public var audiences: [String]?
    public var jwksURI: String?
    /// A PEM public key instead of a JWKS.
    public var publicKey: String?
    public var requiredClaim: String?
    public var allowUnverifiedEmail: Bool?
    public var linkByEmail: Bool?
    public var displayName: String?

    public init(id: String, kind: String? = nil, issuer: String? = nil, audiences: [String]? = nil, jwksURI: String? = nil) {
        self.id = id
        self.kind = kind
        self.issuer = issuer
        self.audiences = audiences
        self.jwksURI = jwksURI
    }

    package enum CodingKeys: String, CodingKey, CaseIterable {
        case id, kind, issuer, audiences
        case jwksURI = "jwks_uri"
        case publicKey = "public_key"
        case requiredClaim = "required_claim"
        case allowUnverifiedEmail = "allow_unverified_email"
        case linkByEmail = "link_by_email"
        case displayName = "display_name"
    }

    /// The validated, completed registration.
    package func record(createdAt: Date = Date()) throws(ClientValidation.Issue) -> FederationProviderRecord {
        guard let kind = Federation.Kind(rawValue: kind ?? "oidc") else {
            throw ClientValidation.Issue(
                field: "kind", reason: "\"\(kind ?? "")\" is unknown; use \(Federation.Kind.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return try ProviderValidation.check(
            FederationProviderRecord(
                id: id, kind: kind, issuer: issuer ?? "", audiences: audiences ?? [], jwksURI: jwksURI, publicKeyPEM: publicKey,
                requiredClaim: requiredClaim ?? "email", allowUnverifiedEmail: allowUnverifiedEmail ?? false,
                linkByEmail: linkByEmail ?? false, displayName: displayName, createdAt: createdAt))
    }
}

extension ProviderSeed.CodingKeys: SeedEntryKeys {
    package var rule: SeedKeyRule {
        switch self {
        case .id: SeedKeyRule(shape: .text, isRequired: true)
        case .kind, .issuer, .jwksURI, .publicKey, .requiredClaim, .displayName: SeedKeyRule(shape: .text)
        case .audiences: SeedKeyRule(shape: .texts)
        case .allowUnverifiedEmail, .linkByEmail: SeedKeyRule(shape: .flag)
        }
    }
}

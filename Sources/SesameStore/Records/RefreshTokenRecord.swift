import Foundation
import SesameProtocol

/// A refresh token. Every use rotates it (RFC 9700 §4.14.2); all tokens descended from one
/// grant share `familyID`, so reuse of a rotated token revokes the whole family.
public struct RefreshTokenRecord: Sendable, Codable, Equatable {
    public var tokenDigest: String
    public var familyID: String
    public var clientID: String
    public var scope: String
    public var authentication: AuthenticationContext
    public var sessionID: String?
    public var issuedAt: Date
    public var expiresAt: Date
    /// Set when this token was exchanged for its successor.
    public var rotatedAt: Date?
    public var revokedAt: Date?
    /// The granted `claims` request parameter (OIDC Core §5.5) of the grant, kept by rotation.
    public var claims: ClaimsRequest?
    /// The RFC 7638 thumbprint of the DPoP key this token is bound to (RFC 9449 §5: refresh
    /// tokens of public clients), kept by rotation; `nil`: not bound.
    public var dpopJKT: String?
    /// The APIs the grant was authorized for (RFC 8707 §2.2): a refresh may ask for any of them,
    /// and gets all of them without `resource`. Empty: the issuer only.
    public var resources: [String] = []

    public init(
        tokenDigest: String, familyID: String, clientID: String, scope: String,
        authentication: AuthenticationContext, sessionID: String?, issuedAt: Date,
        expiresAt: Date, rotatedAt: Date? = nil, revokedAt: Date? = nil, claims: ClaimsRequest? = nil,
        dpopJKT: String? = nil
    ) {
        self.tokenDigest = tokenDigest
        self.familyID = familyID
        self.clientID = clientID
        self.scope = scope
        self.authentication = authentication
        self.sessionID = sessionID
        self.issuedAt = issuedAt
        self.expiresAt = expiresAt
        self.rotatedAt = rotatedAt
        self.revokedAt = revokedAt
        self.claims = claims
        self.dpopJKT = dpopJKT
    }
}

/// The refresh token that replaces a rotated one (RFC 9700 §4.14.2): its digest and validity.
/// Family, client, scope, authentication and session are inherited from the token it replaces.
public struct RefreshTokenSuccessor: Sendable, Equatable {
    public var tokenDigest: String
    public var issuedAt: Date
    public var expiresAt: Date

    public init(tokenDigest: String, issuedAt: Date, expiresAt: Date) {
        self.tokenDigest = tokenDigest
        self.issuedAt = issuedAt
        self.expiresAt = expiresAt
    }
}

import Foundation
import SesameProtocol

/// A signing key. Lifecycle (key rotation with overlap):
/// published at `createdAt`; signs from `activatesAt`; stops signing at `retiredAt`;
/// leaves the JWKS at `expiresAt` (after every token it signed has expired).
public struct SigningKeyRecord: Sendable, Codable, Equatable {
    public var kid: String
    /// `RS256` or `ES256`.
    public var algorithm: String
    /// PKCS#8 PEM, sealed with the data directory's master key (AES-GCM), base64.
    public var sealedPrivateKey: String
    public var createdAt: Date
    public var activatesAt: Date
    public var retiredAt: Date?
    public var expiresAt: Date?

    public init(
        kid: String, algorithm: String, sealedPrivateKey: String, createdAt: Date,
        activatesAt: Date, retiredAt: Date? = nil, expiresAt: Date? = nil
    ) {
        self.kid = kid
        self.algorithm = algorithm
        self.sealedPrivateKey = sealedPrivateKey
        self.createdAt = createdAt
        self.activatesAt = activatesAt
        self.retiredAt = retiredAt
        self.expiresAt = expiresAt
    }
}

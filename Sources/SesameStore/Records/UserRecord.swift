import Foundation
import SesameProtocol

/// An end user. `id` is the OIDC `sub`: stable, never reassigned.
public struct UserRecord: Sendable, Codable, Equatable {
    public var id: String
    /// Login name, unique, compared case-insensitively (stored lowercased).
    public var username: String
    /// Unique, stored lowercased.
    public var email: String
    public var emailVerified: Bool
    /// PHC string, e.g. `$scrypt$ln=15,r=8,p=1$<salt>$<hash>`; `nil` for federated-only users.
    public var passwordHash: String?
    /// Profile: the OIDC standard claims (`sub`, `email`, `email_verified` mirror the fields).
    public var claims: StandardClaims
    public var createdAt: Date
    public var updatedAt: Date
    /// When an administrator disabled the account (issue #47); `nil`: enabled. A disabled user
    /// cannot sign in, refresh, unlock a PIN or use the account APIs; their sessions were ended
    /// when it was disabled. Changed only through ``AdminStore/setUserDisabled(id:at:)``.
    public var disabledAt: Date?

    public var isDisabled: Bool { disabledAt != nil }

    public init(
        id: String? = nil, username: String, email: String,
        emailVerified: Bool = false, passwordHash: String? = nil, claims: StandardClaims? = nil,
        createdAt: Date = Date(), updatedAt: Date = Date(), disabledAt: Date? = nil
    ) {
        // A new random (v4) UUID when none is given.
        self.id = id ?? SecureRandom.uuid()
        self.username = username.lowercased()
        self.email = email.lowercased()
        self.emailVerified = emailVerified
        self.passwordHash = passwordHash
        var claims = claims ?? StandardClaims(sub: self.id)
        claims.sub = self.id
        claims.email = email.lowercased()
        claims.emailVerified = emailVerified
        if claims.preferredUsername == nil { claims.preferredUsername = username.lowercased() }
        self.claims = claims
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.disabledAt = disabledAt
    }
}

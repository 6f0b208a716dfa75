import Foundation
import SesameProtocol

/// A signed-in user as the app sees it ("several accounts side by side").
public struct Account: Codable, Sendable, Equatable, Identifiable {
    /// Stable identifier derived from issuer and subject (see ``Account/makeID(issuer:subject:)``);
    /// safe to use in store keys and UI state.
    public var id: String
    /// The `iss` of the account's ID token.
    public var issuer: String
    /// The `sub` of the account's ID token.
    public var subject: String
    /// A name to show: the ID token's `name`, else `preferred_username` (OIDC Core §5.1); `nil` when
    /// the provider sent neither (ask for the `profile` scope).
    public var displayName: String?
    /// The ID token's `email` claim, if any (scope `email`); check `email_verified` before trusting it.
    public var email: String?
    /// When the account was last signed in, switched to or used (MRU order).
    public var lastUsedAt: Date

    /// An account for `issuer` and `subject`, with ``id`` derived by ``makeID(issuer:subject:)``.
    /// The SDK builds these from ID tokens; apps need this mostly for tests and previews.
    public init(
        issuer: String, subject: String, displayName: String? = nil, email: String? = nil,
        lastUsedAt: Date
    ) {
        self.id = Account.makeID(issuer: issuer, subject: subject)
        self.issuer = issuer
        self.subject = subject
        self.displayName = displayName
        self.email = email
        self.lastUsedAt = lastUsedAt
    }

    /// `base64url(SHA-256(issuer || 0x00 || subject))`, first 16 bytes: stable, opaque and
    /// unique per (issuer, sub) pair (OIDC Core §2: `sub` is unique only within an issuer).
    public static func makeID(issuer: String, subject: String) -> String {
        Base64URL.sha256(of: issuer + "\u{0}" + subject, prefix: 16)
    }
}

import Foundation
import SesameProtocol

/// One account's credentials as persisted in the ``CredentialStore`` (record
/// `sesame.session.<account id>`). Versioned so a future format can migrate or drop it.
struct StoredSession: Codable, Sendable, Equatable {
    static let formatVersion = 1

    var version: Int = StoredSession.formatVersion
    var account: Account
    var accessToken: String
    var accessTokenExpiresAt: Date?
    var refreshToken: String?
    var idToken: String?
    /// The validated claims of ``idToken`` (so `idTokenClaims()` works offline).
    var idTokenClaims: IDTokenClaims?
    var scope: String?
    /// The login name (username or email) the user signs in with, for re-authentication
    /// (docs/first-party-and-accounts.md): the name typed at native sign-in, else the ID token's
    /// `preferred_username` or `email`. Absent in records written before it existed.
    var username: String?
    /// A session unlocked with a device PIN (docs/pin-devices.md): kept in memory only, never
    /// written to the credential store, gone when the app ends.
    var memoryOnly: Bool?
    /// RFC 6749 §5.1 `token_type`: `DPoP` when the tokens are bound to ``dpopKey`` (RFC 9449 §5);
    /// absent (records written before) or `Bearer` otherwise.
    var tokenType: String?
    /// The account's DPoP key (RFC 9449 §2), stored with its tokens; `nil` for bearer tokens.
    var dpopKey: DPoPKeyMaterial?

    /// Whether the access token must be sent with `Authorization: DPoP` and a proof.
    var isDPoPBound: Bool { tokenType?.lowercased() == "dpop" && dpopKey != nil }

    /// Whether the access token is still usable `margin` seconds from `now`.
    func accessTokenIsFresh(at now: Date, margin: TimeInterval) -> Bool {
        Self.isFresh(expiresAt: accessTokenExpiresAt, at: now, margin: margin)
    }

    /// A token without a known expiry counts as fresh; the server's 401 says otherwise.
    static func isFresh(expiresAt: Date?, at now: Date, margin: TimeInterval) -> Bool {
        guard let expiresAt else { return true }
        return expiresAt.timeIntervalSince(now) > margin
    }

    /// Applies a refresh response (RFC 6749 §6): a missing `refresh_token` keeps the old one.
    mutating func apply(_ tokens: TokenResponse, claims: IDTokenClaims?, now: Date) {
        accessToken = tokens.accessToken
        tokenType = tokens.tokenType
        accessTokenExpiresAt = tokens.expiresIn.map { now.addingTimeInterval(TimeInterval($0)) }
        if let refreshToken = tokens.refreshToken { self.refreshToken = refreshToken }
        if let idToken = tokens.idToken, let claims {
            self.idToken = idToken
            self.idTokenClaims = claims
            account.displayName = claims.name ?? claims.preferredUsername ?? account.displayName
            account.email = claims.email ?? account.email
        }
        if let scope = tokens.scope { self.scope = scope }
    }
}

/// The list of accounts, most recently used first, and the current one (record `sesame.index`).
struct SessionIndex: Codable, Sendable, Equatable {
    var version: Int = StoredSession.formatVersion
    var order: [String] = []
    var current: String?
}

/// Record keys in the credential store.
enum StoreKeys {
    static let index = "sesame.index"
    static let sessionPrefix = "sesame.session."
    static func session(_ id: Account.ID) -> String { sessionPrefix + id }
}

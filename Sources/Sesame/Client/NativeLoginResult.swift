import Foundation
import SesameProtocol

/// The outcome of ``SesameClient/login(username:password:options:)`` (docs/first-party-and-accounts.md): signed in,
/// or a second factor is needed first.
public enum NativeLoginResult: Sendable {
    /// The password was enough; the account is stored, current and announced with
    /// ``SesameEvent/signedIn(_:)``.
    case signedIn(Account)
    /// The provider wants a second factor: pick one of ``MFAChallenge/methods``, call
    /// ``MFAChallenge/start(_:)`` then ``MFAChallenge/verify(code:)``.
    case mfaRequired(MFAChallenge)
}

/// The outcome of ``SesameClient/MFA/reauthenticate(password:account:)`` (docs/first-party-and-accounts.md
/// "re-authentication for sensitive actions").
public enum ReauthenticationResult: Sendable {
    /// The password was enough: a fresh, short-lived access token.
    case reauthenticated(ReauthenticationGrant)
    /// The provider wants a second factor too; ``ReauthenticationChallenge/verify(code:)``
    /// then yields the grant.
    case mfaRequired(ReauthenticationChallenge)
}

/// Proof of a fresh authentication (`max_age=0`): an access token that lives at most a few
/// minutes and comes with no refresh token. It is **not** stored as the account's session; send
/// it with the one sensitive request it was obtained for.
public struct ReauthenticationGrant: Sendable, CustomStringConvertible {
    /// The short-lived access token (RFC 6750 bearer). Never log it.
    public let accessToken: String
    /// When the access token expires (from `expires_in`).
    public let expiresAt: Date?
    /// The validated ID token claims: `auth_time` is the moment of re-authentication, `acr` and
    /// `amr` say how.
    public let idTokenClaims: IDTokenClaims
    /// The account that re-authenticated (its `sub` was checked against the ID token).
    public let account: Account

    /// Builds a grant; the SDK makes these after re-authentication, apps need this only for test doubles.
    public init(accessToken: String, expiresAt: Date?, idTokenClaims: IDTokenClaims, account: Account) {
        self.accessToken = accessToken
        self.expiresAt = expiresAt
        self.idTokenClaims = idTokenClaims
        self.account = account
    }

    /// The account, expiry and a redacted access token, safe to log.
    public var description: String {
        "ReauthenticationGrant(account: \(account.id), accessToken: \(Redaction.redact(accessToken)), expiresAt: \(expiresAt.map { "\($0)" } ?? "-"))"
    }
}

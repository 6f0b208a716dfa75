import Foundation

/// What `SesameClient.logout` did (logout as separable steps).
public struct LogoutResult: Sendable {
    /// The account that was forgot locally (always done first).
    public var account: Account
    /// `true` when the revocation endpoint (RFC 7009) confirmed revocation of the tokens.
    public var revoked: Bool
    /// Why revocation did not reach the server, when it was asked for and failed.
    public var revocationError: SesameError?

    /// Builds a result; `SesameClient` makes these itself, apps need this only for test doubles.
    public init(account: Account, revoked: Bool, revocationError: SesameError? = nil) {
        self.account = account
        self.revoked = revoked
        self.revocationError = revocationError
    }
}

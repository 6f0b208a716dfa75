import Foundation
import SesameProtocol

/// A device session of OpenID Connect Native SSO 1.0 (draft 07 §3.2): what a vendor's apps on
/// one device share after one of them signed a user in with the `device_sso` scope.
///
/// - ``id`` is the `sid` (§3.4.1) of every token issued in the session, to any app: revoking
///   the session revokes all of them (§4.3 "If that session expires, all refresh_tokens
///   associated with it MUST be invalidated").
/// - The `device_secret` itself is never stored, only its ``secretDigest`` (§6.1: the secret is
///   opaque to the client and protected by the server).
public struct DeviceSessionRecord: Sendable, Equatable {
    /// `ds_` and 128 random bits, base64url. Says nothing about the user or the device
    /// (§3.4.1: `sid` must not help an attacker).
    public var id: String
    /// ``SecretDigest`` of the current device secret.
    public var secretDigest: String
    public var userID: String
    /// The app group (vendor) of the client that opened the session; only its clients may join.
    public var appGroup: String
    /// How the user signed in; the apps that join inherit it (`acr`, `amr`, `auth_time`).
    public var authentication: AuthenticationContext
    /// The browser session the first sign-in came through, if any. RP-Initiated Logout with an
    /// ID token of this session ends that browser session without asking (``LogoutHints``); it
    /// does not end the device session, as it never revokes apps' refresh tokens.
    public var browserSessionID: String?
    public var createdAt: Date
    /// An absolute limit: no app's tokens outlive it.
    public var expiresAt: Date
    /// Set by "sign out everywhere", RP-Initiated Logout or an account-wide revocation.
    public var revokedAt: Date?

    public init(
        id: String? = nil, secretDigest: String, userID: String,
        appGroup: String, authentication: AuthenticationContext, browserSessionID: String?, createdAt: Date,
        expiresAt: Date, revokedAt: Date? = nil
    ) {
        self.id = id ?? "ds_" + Base64URL.encode(SecureRandom.bytes(16))
        self.secretDigest = secretDigest
        self.userID = userID
        self.appGroup = appGroup
        self.authentication = authentication
        self.browserSessionID = browserSessionID
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.revokedAt = revokedAt
    }

    /// Whether tokens may still be issued in the session at `now`.
    public func isLive(at now: Date) -> Bool { revokedAt == nil && expiresAt > now }

    /// Whether `sessionID` (a token's `sid`) names a device session rather than a browser
    /// session or a PIN registration.
    public static func isDeviceSessionID(_ sessionID: String?) -> Bool { sessionID?.hasPrefix("ds_") == true }
}

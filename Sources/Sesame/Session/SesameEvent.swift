import Foundation
import SesameProtocol

/// Something that happened to a session ("Events as an `AsyncStream`").
public enum SesameEvent: Sendable {
    /// An account finished browser sign-in and was stored.
    case signedIn(Account)
    /// An account's tokens were refreshed and the rotated refresh token persisted.
    case refreshed(Account)
    /// An account's session ended locally.
    case signedOut(Account, reason: SignOutReason)
    /// The server asked for stronger authentication for this account.
    case stepUpRequired(Account?, APIError)
    /// A stored record could not be read and was removed; the app keeps running.
    case storeRepaired(key: String, reason: String)
    /// The server asked for a challenge (abuse protection) and the SDK is solving it before it
    /// sends the request again (docs/abuse-protection.md).
    case challenge(ChallengeProgress)
    /// A PIN registration was revoked (too many wrong PINs, or removed) and its material
    /// deleted from this device (docs/pin-devices.md).
    case pinDeregistered(PINProfile)
}

/// Why a session ended.
public enum SignOutReason: Sendable, Equatable {
    /// The app called `logout`.
    case userInitiated
    /// The token endpoint answered `invalid_grant` to a refresh (RFC 6749 §5.2): sign in again.
    case refreshTokenRejected
    /// The server reports the session revoked (e.g. logout from another app or device).
    case revokedElsewhere
    /// A PIN-unlocked session went unused longer than
    /// ``SesameConfiguration/pinSessionIdleTimeout``: unlock again (docs/pin-devices.md).
    case locked
}

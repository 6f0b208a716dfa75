import Foundation

/// Why an authenticator did not answer (the DOMException names of WebAuthn §5.1.3/§5.1.4 where
/// they apply).
public enum PasskeyAuthenticatorError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The user cancelled, or the platform's sheet was dismissed (`NotAllowedError`).
    case cancelled
    /// No passkey for this relying party (and these allowed credentials) is here.
    case noCredentials
    /// One of `excludeCredentials` is here already (`InvalidStateError`).
    case alreadyRegistered
    /// User verification was required and this authenticator cannot, or it failed.
    case userVerificationUnavailable
    /// The PIN chosen for a new passkey is shorter than `minimum` characters.
    case pinTooShort(minimum: Int)
    /// The RP ID is not valid for the authenticator's origin (`SecurityError`).
    case relyingPartyMismatch(String)
    /// None of the offered algorithms is supported (`NotSupportedError`).
    case unsupportedAlgorithm
    /// The key store failed.
    case storage(String)
    /// The platform has no passkeys (e.g. an OS version without them).
    case unavailable(String)

    /// A sentence for logs and error messages, saying what the user can do where that helps.
    public var description: String {
        switch self {
        case .cancelled: "the passkey request was cancelled"
        case .noCredentials: "no passkey for this account is on this device; sign in another way, then add one"
        case .alreadyRegistered: "a passkey of this device is registered for the account already"
        case .userVerificationUnavailable:
            "this passkey needs user verification (a screen lock, PIN or biometrics) and none is set up for it"
        case .pinTooShort(let minimum): "the passkey PIN is shorter than \(minimum) characters; choose a longer one"
        case .relyingPartyMismatch(let detail): "the passkey's relying party does not match this app: \(detail)"
        case .unsupportedAlgorithm: "the server offered no signature algorithm this authenticator supports"
        case .storage(let detail): "the passkey store failed: \(detail)"
        case .unavailable(let detail): "passkeys are not available here: \(detail)"
        }
    }
}

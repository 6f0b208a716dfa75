import Foundation
import SesameProtocol

/// Makes and uses passkeys for the SDK (docs/passkeys.md). The SDK asks the server for WebAuthn
/// options, hands them here, and sends back what comes out, unchanged:
/// - on Apple platforms, `PlatformPasskeyAuthenticator` (AuthenticationServices, the system
///   sheet, iCloud Keychain or a security key);
/// - elsewhere, and for the CLI and tests, ``SoftwarePasskeyAuthenticator`` (a P-256 key in the
///   app's encrypted store, honest about being software).
public protocol PasskeyAuthenticator: Sendable {
    /// `navigator.credentials.create()` (WebAuthn §5.1.3) for `options`.
    func register(_ options: CredentialCreationOptionsJSON) async throws(PasskeyAuthenticatorError)
        -> RegistrationResponseJSON
    /// `navigator.credentials.get()` (WebAuthn §5.1.4) for `options`.
    func authenticate(_ options: CredentialRequestOptionsJSON) async throws(PasskeyAuthenticatorError)
        -> AuthenticationResponseJSON
}

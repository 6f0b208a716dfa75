import Foundation
import SesameProtocol
import SesameStore

/// What a passkey says about the sign-in, in RFC 8176 `amr` values and Sesame's `acr`
/// (docs/passkeys.md):
/// - the key: `hwk` for a device-bound credential (BE unset) from an authenticator that is not
///   Sesame's software one, `swk` for a synced (BE set) or software credential;
/// - `user`: the user-presence test (UP, always required);
/// - `pin`: user verification (UV): the authenticator unlocked the key with a PIN, pattern or
///   biometric, which WebAuthn does not tell apart;
/// - with UV, the passkey is two factors in one (possession and knowledge or inherence), so
///   `mfa` and `acr` `urn:sesame:acr:mfa`.
package enum PasskeyAuthenticationContext {
    package static func keyKind(backupEligible: Bool, aaguid: String) -> String {
        let software = Data(WebAuthn.softwareAuthenticatorAAGUID).map { String(format: "%02x", $0) }.joined()
        return backupEligible || aaguid == software
            ? AuthenticationMethodReference.softwareKey : AuthenticationMethodReference.hardwareKey
    }

    package static func keyKind(_ passkey: PasskeyRecord) -> String {
        keyKind(backupEligible: passkey.backupEligible, aaguid: passkey.aaguid)
    }

    /// The `amr` of a passkey used with `flags`.
    package static func methods(_ passkey: PasskeyRecord, flags: AuthenticatorData.Flags) -> [String] {
        var amr = [keyKind(passkey), AuthenticationMethodReference.userPresence]
        if flags.contains(.userVerified) { amr.append(AuthenticationMethodReference.pin) }
        return amr
    }

    /// A first-factor sign-in (UV was required).
    package static func signIn(_ passkey: PasskeyRecord, flags: AuthenticatorData.Flags, at time: Date) -> AuthenticationContext {
        AuthenticationContext(
            userID: passkey.userID, authTime: time, acr: AuthenticationContextClass.multiFactor,
            amr: methods(passkey, flags: flags) + [AuthenticationMethodReference.multiFactor])
    }

    /// A second factor after `firstFactor`.
    package static func stepUp(
        _ passkey: PasskeyRecord, flags: AuthenticatorData.Flags, firstFactor: [String], at time: Date
    ) -> AuthenticationContext {
        var amr = firstFactor.filter { $0 != AuthenticationMethodReference.multiFactor }
        if amr.isEmpty { amr = [AuthenticationMethodReference.password] }
        for value in methods(passkey, flags: flags) where !amr.contains(value) { amr.append(value) }
        amr.append(AuthenticationMethodReference.multiFactor)
        return AuthenticationContext(
            userID: passkey.userID, authTime: time, acr: AuthenticationContextClass.multiFactor, amr: amr)
    }
}

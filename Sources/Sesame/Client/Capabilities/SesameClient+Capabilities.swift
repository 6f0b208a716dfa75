import Foundation

/// The capabilities beyond signing in and calling APIs, each a handle of its own so that
/// ``SesameClient`` itself stays small: `client.pin`, `client.passkeys`, `client.mfa`,
/// `client.account`, `client.sso`, `client.federation`. A handle is a value that refers to the
/// client; keep the client, take handles when needed.
extension SesameClient {
    /// PIN-protected devices: register a PIN, unlock with it or with biometrics.
    public nonisolated var pin: PIN { PIN(client: self) }
    /// Passkeys: register, list, rename, remove, and sign in with one.
    public nonisolated var passkeys: Passkeys { Passkeys(client: self) }
    /// Second factors: enrol and remove them; step-up and re-authentication.
    public nonisolated var mfa: MFA { MFA(client: self) }
    /// The user's account: sign-up, email, password, profile, devices, linked identities.
    public nonisolated var account: AccountManagement { AccountManagement(client: self) }
    /// Single sign-on across a vendor's apps (OpenID Connect Native SSO).
    public nonisolated var sso: SingleSignOn { SingleSignOn(client: self) }
    /// Sign-in with another provider's ID token (Sign in with Apple, Google, a vendor's own).
    public nonisolated var federation: Federation { Federation(client: self) }
}

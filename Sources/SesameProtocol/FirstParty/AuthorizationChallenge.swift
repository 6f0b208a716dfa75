import Foundation

/// Wire values of OAuth 2.0 for First-Party Applications (draft-ietf-oauth-first-party-apps),
/// `POST /authorize-challenge`, shared by the server and the SDK.
///
/// Requests are `application/x-www-form-urlencoded` with the parameter names in
/// ``AuthorizationChallengeParameter``. A success is HTTP 200 with
/// ``AuthorizationChallengeResponse``; a continuation is HTTP 400 ``APIError`` with
/// `error: "insufficient_authorization"`, `auth_session` and `mfa_methods` (draft §5.2.2).
public enum AuthorizationChallengeParameter {
    /// draft §5.1 `client_id`: names a public client (a confidential one authenticates as at `/token`).
    public static let clientID = OAuthParameter.clientID
    /// draft §5.1 `scope`: the scopes wanted, space-separated, each allowed to the client; required
    /// for a sign-in (a step-up keeps the bearer token's).
    public static let scope = OAuthParameter.scope
    /// RFC 7636 §4.2 `code_challenge` (draft §5.1): required; the verifier redeems the code at `/token`.
    public static let codeChallenge = OAuthParameter.codeChallenge
    /// RFC 7636 §4.3 `code_challenge_method`: must be `S256`; absent means `plain`, which is refused.
    public static let codeChallengeMethod = OAuthParameter.codeChallengeMethod
    /// Username or email.
    public static let username = "username"
    /// The user's password, sent with `username`; in the form body only, never in the URL.
    public static let password = "password"
    /// OIDC Core §3.1.2.1 `acr_values`: `urn:sesame:acr:mfa` asks for a second factor; with a
    /// bearer token it starts a step-up.
    public static let acrValues = OAuthParameter.acrValues
    /// `0` asks for re-authentication: a short-lived access token and no refresh token.
    public static let maxAge = OAuthParameter.maxAge
    /// OIDC Core §3.1.2.1 `ui_locales`: BCP 47 tags, preferred first, for the language of error
    /// messages and of the codes sent by email or SMS.
    public static let uiLocales = OAuthParameter.uiLocales
    /// draft §5.1: continues an exchange that answered `insufficient_authorization`.
    public static let authSession = "auth_session"
    /// The MFA method the user chose (``MFAMethod``): sends an email/SMS code.
    public static let mfaMethod = "mfa_method"
    /// The one-time code the user typed.
    public static let mfaCode = "mfa_code"
    /// `passkey`: start a passkey sign-in (WebAuthn, docs/passkeys.md); the continuation carries
    /// `passkey_options`. An optional `username` narrows it to that user's passkeys.
    public static let challengeType = "challenge_type"
    /// The passkey assertion (``AuthenticationResponseJSON``, as JSON) that answers
    /// `passkey_options`, with the `auth_session` they came with.
    public static let passkeyAssertion = "passkey_assertion"
    /// The value of ``challengeType`` that starts a passkey sign-in.
    public static let passkeyChallenge = "passkey"
}

/// draft-ietf-oauth-first-party-apps §5.2.1: the successful answer. The code is redeemed at
/// `/token` (grant `authorization_code`, `code_verifier`, no `redirect_uri`).
public struct AuthorizationChallengeResponse: Codable, Sendable, Equatable {
    /// §5.2.1 `authorization_code`: single use and short-lived; redeem it at `/token` with the
    /// PKCE verifier.
    public var authorizationCode: String

    /// A successful answer carrying `authorizationCode`.
    public init(authorizationCode: String) {
        self.authorizationCode = authorizationCode
    }

    enum CodingKeys: String, CodingKey {
        case authorizationCode = "authorization_code"
    }
}

/// A second factor a user can have (docs/first-party-and-accounts.md).
public enum MFAMethod: String, Codable, Sendable, CaseIterable, Hashable {
    /// A one-time code sent to the user's verified email address.
    case email
    /// A one-time code sent by SMS to the user's phone number.
    case sms
    /// RFC 6238 time-based one-time password from an authenticator app.
    case totp
    /// A passkey (WebAuthn) the user registered: answered with `passkey_assertion`, never a code.
    case passkey

    /// The methods enrolled through `/api/mfa/{method}` (a passkey is registered through
    /// `/api/passkeys`).
    public static let enrollable: [MFAMethod] = [.email, .sms, .totp]

    /// The RFC 8176 `amr` value for this method.
    public var authenticationMethodReference: String {
        switch self {
        case .email, .totp: AuthenticationMethodReference.oneTimePassword
        case .sms: AuthenticationMethodReference.sms
        case .passkey: AuthenticationMethodReference.hardwareKey
        }
    }
}

/// Sesame's `acr` values (OIDC Core §2, advertised in `acr_values_supported`).
public enum AuthenticationContextClass {
    /// Signed in with a password only.
    public static let password = "urn:sesame:acr:pwd"
    /// Password plus a second factor.
    public static let multiFactor = "urn:sesame:acr:mfa"
    /// Both, weakest first.
    public static let all = [password, multiFactor]
}

/// RFC 8176 authentication method reference values used in `amr`.
public enum AuthenticationMethodReference {
    /// §2 `pwd`: password-based authentication.
    public static let password = "pwd"
    /// §2 `otp`: one-time password (TOTP and emailed codes).
    public static let oneTimePassword = "otp"
    /// §2 `sms`: confirmation by SMS.
    public static let sms = "sms"
    /// §2 `mfa`: multiple-factor authentication.
    public static let multiFactor = "mfa"
    /// §2 `pin`: a personal identification number (the device PIN, docs/pin-devices.md).
    public static let pin = "pin"
    /// §2 `swk`: proof of possession of a software-secured key (the PIN-sealed device key, a
    /// synced passkey, the software passkey authenticator).
    public static let softwareKey = "swk"
    /// §2 `hwk`: proof of possession of a hardware-secured key (a device-bound passkey).
    public static let hardwareKey = "hwk"
    /// §2 `user`: a user presence test (a passkey's UP flag).
    public static let userPresence = "user"
}

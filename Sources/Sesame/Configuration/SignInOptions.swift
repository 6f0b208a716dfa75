import Foundation
import SesameProtocol

/// Per-sign-in options ("Options"), sent as OIDC Core §3.1.2.1 request parameters.
public struct SignInOptions: Sendable {
    /// `prompt`, e.g. `["login"]`, `["consent"]`, `["none"]`.
    public var prompt: [String]?
    /// `login_hint`: the email or username to pre-fill.
    public var loginHint: String?
    /// `max_age`: the user must have authenticated within this many seconds; the ID token's
    /// `auth_time` is then checked (§3.1.3.7 step 13).
    public var maxAge: Int?
    /// `acr_values`: requested authentication context classes; the returned `acr` must be one
    /// of them (§3.1.3.7 step 12).
    public var acrValues: [String]?
    /// `claims`: individual claims to return in the ID token or from the UserInfo endpoint
    /// (OIDC Core §5.5), sent as its JSON when not empty. Requests in `id_token` are also
    /// checked on the returned ID token: an essential `acr` with values must be one of them
    /// (§5.5.1.1), and a `sub` with a `value` must equal it (§5.5.1).
    public var claims: ClaimsRequest?
    /// `ui_locales`: preferred languages for the login page, e.g. `["de", "en"]`.
    public var uiLocales: [String]?
    /// Scopes for this request instead of the configured ones (must include `openid`).
    public var scopes: [String]?
    /// Further parameters; they cannot override the protocol parameters Sesame sets.
    public var extraParameters: [String: String]
    /// No shared browser session (no SSO cookies), where the agent supports it.
    public var ephemeral: Bool

    /// Options for one sign-in; each parameter is the property of the same name, and `nil` or empty
    /// sends nothing. The default value is a plain sign-in with the configured scopes.
    public init(
        prompt: [String]? = nil, loginHint: String? = nil, maxAge: Int? = nil,
        acrValues: [String]? = nil, claims: ClaimsRequest? = nil, uiLocales: [String]? = nil,
        scopes: [String]? = nil, extraParameters: [String: String] = [:], ephemeral: Bool = false
    ) {
        self.prompt = prompt
        self.loginHint = loginHint
        self.maxAge = maxAge
        self.acrValues = acrValues
        self.claims = claims
        self.uiLocales = uiLocales
        self.scopes = scopes
        self.extraParameters = extraParameters
        self.ephemeral = ephemeral
    }
}

import Foundation

/// Per-request options of native first-party sign-in (docs/first-party-and-accounts.md), sent as parameters of the
/// authorization challenge request (draft-ietf-oauth-first-party-apps §5.1).
public struct NativeLoginOptions: Sendable {
    /// Scopes for this sign-in instead of the configured ones (must include `openid`).
    public var scopes: [String]?
    /// `acr_values`, e.g. `[AuthenticationContextClass.multiFactor]` to require a second factor
    /// now; the ID token's `acr` must then be one of them (OIDC Core §3.1.3.7 step 12).
    public var acrValues: [String]?
    /// `ui_locales`: preferred languages for `error_user_msg` and the emailed code, e.g. `["de"]`.
    public var uiLocales: [String]?

    /// Options for one native sign-in; `nil` keeps the configured scopes and sends no `acr_values`
    /// or `ui_locales`.
    public init(scopes: [String]? = nil, acrValues: [String]? = nil, uiLocales: [String]? = nil) {
        self.scopes = scopes
        self.acrValues = acrValues
        self.uiLocales = uiLocales
    }
}

/// Parameter names of the form-encoded and query-encoded OAuth 2.0 and OpenID Connect messages,
/// shared by the SDK (which writes them) and the server (which reads them), so the two cannot
/// drift. JSON members of responses are the `CodingKeys` of their types (``TokenResponse``,
/// ``APIError``); the first-party endpoint's extra names are ``AuthorizationChallengeParameter``.
public enum OAuthParameter {
    // Authorization request: RFC 6749 §4.1.1, RFC 7636 §4.3, OIDC Core §3.1.2.1 and §5.5.
    public static let responseType = "response_type"
    public static let responseMode = "response_mode"
    public static let clientID = "client_id"
    public static let redirectURI = "redirect_uri"
    public static let scope = "scope"
    public static let state = "state"
    public static let nonce = "nonce"
    public static let codeChallenge = "code_challenge"
    public static let codeChallengeMethod = "code_challenge_method"
    public static let prompt = "prompt"
    public static let maxAge = "max_age"
    public static let loginHint = "login_hint"
    public static let idTokenHint = "id_token_hint"
    public static let acrValues = "acr_values"
    public static let uiLocales = "ui_locales"
    public static let claims = "claims"
    /// OIDC Core §6 request objects: refused (`request_not_supported`).
    public static let request = "request"
    public static let requestURI = "request_uri"
    /// OIDC Core §7.2.1: refused (`registration_not_supported`).
    public static let registration = "registration"

    // Authorization response: RFC 6749 §4.1.2 and §4.1.2.1, RFC 9207 §2.
    public static let code = "code"
    public static let issuer = "iss"
    public static let error = "error"
    public static let errorDescription = "error_description"

    // Token request: RFC 6749 §4.1.3, §4.4, §6, RFC 7636 §4.5; client authentication §2.3.1.
    public static let grantType = "grant_type"
    public static let codeVerifier = "code_verifier"
    public static let refreshToken = "refresh_token"
    public static let clientSecret = "client_secret"

    // Revocation and introspection: RFC 7009 §2.1, RFC 7662 §2.1.
    public static let token = "token"
    public static let tokenTypeHint = "token_type_hint"

    // RP-Initiated Logout 1.0 §2.
    public static let postLogoutRedirectURI = "post_logout_redirect_uri"
    public static let logoutHint = "logout_hint"
}

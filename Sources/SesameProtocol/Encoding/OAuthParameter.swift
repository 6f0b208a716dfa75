/// Parameter names of the form-encoded and query-encoded OAuth 2.0 and OpenID Connect messages,
/// shared by the SDK (which writes them) and the server (which reads them), so the two cannot
/// drift. JSON members of responses are the `CodingKeys` of their types (``TokenResponse``,
/// ``APIError``); the first-party endpoint's extra names are ``AuthorizationChallengeParameter``.
public enum OAuthParameter {
    // Authorization request: RFC 6749 §4.1.1, RFC 7636 §4.3, OIDC Core §3.1.2.1 and §5.5.
    /// RFC 6749 §3.1.1 `response_type`; Sesame accepts `code`.
    public static let responseType = "response_type"
    /// OIDC Core §3.1.2.1 `response_mode`, e.g. `query`.
    public static let responseMode = "response_mode"
    /// RFC 6749 §2.2 `client_id`: the registered client's identifier.
    public static let clientID = "client_id"
    /// RFC 6749 §3.1.2 `redirect_uri`: must exactly match one the client registered.
    public static let redirectURI = "redirect_uri"
    /// RFC 6749 §3.3 `scope`: space-separated scope values.
    public static let scope = "scope"
    /// RFC 8707 §2 `resource`: an API the access token is for (its absolute URI, no fragment).
    /// It may appear more than once, at `/authorize`, `/par` and `/token`.
    public static let resource = "resource"
    /// RFC 6749 §4.1.1 `state`: opaque value the redirect echoes; checked against CSRF.
    public static let state = "state"
    /// OIDC Core §3.1.2.1 `nonce`: echoed in the ID token, binding it to the request.
    public static let nonce = "nonce"
    /// RFC 7636 §4.3 `code_challenge`: the PKCE challenge derived from the code verifier.
    public static let codeChallenge = "code_challenge"
    /// RFC 7636 §4.3 `code_challenge_method`; Sesame requires `S256`.
    public static let codeChallengeMethod = "code_challenge_method"
    /// OIDC Core §3.1.2.1 `prompt`, e.g. `none`, `login`, `consent`.
    public static let prompt = "prompt"
    /// OIDC Core §3.1.2.1 `max_age`: the most seconds since the user last signed in; `0` forces
    /// a new sign-in.
    public static let maxAge = "max_age"
    /// OIDC Core §3.1.2.1 `login_hint`: the sign-in name to pre-fill.
    public static let loginHint = "login_hint"
    /// OIDC Core §3.1.2.1 `id_token_hint`: an ID token issued earlier, naming the user (also
    /// RP-Initiated Logout 1.0 §2).
    public static let idTokenHint = "id_token_hint"
    /// OIDC Core §3.1.2.1 `acr_values`: requested authentication context classes, most wanted first.
    public static let acrValues = "acr_values"
    /// OIDC Core §3.1.2.1 `ui_locales`: BCP 47 tags of the preferred languages, most wanted first.
    public static let uiLocales = "ui_locales"
    /// OIDC Core §5.5 `claims`: individual claims to return (``ClaimsRequest``).
    public static let claims = "claims"
    /// OIDC Core §6 request objects: refused (`request_not_supported`).
    public static let request = "request"
    /// OIDC Core §6.2 and RFC 9126 `request_uri`: refused (`request_uri_not_supported`).
    public static let requestURI = "request_uri"
    /// OIDC Core §7.2.1: refused (`registration_not_supported`).
    public static let registration = "registration"

    // Authorization response: RFC 6749 §4.1.2 and §4.1.2.1, RFC 9207 §2.
    /// RFC 6749 §4.1.2 `code`: the authorization code, redeemed at the token endpoint (§4.1.3).
    public static let code = "code"
    /// RFC 9207 §2 `iss`: the issuer that sent the authorization response (mix-up defence).
    public static let issuer = "iss"
    /// RFC 6749 §4.1.2.1 `error`: the error code of a refused request.
    public static let error = "error"
    /// RFC 6749 §4.1.2.1 `error_description`: text for developers.
    public static let errorDescription = "error_description"

    // Token request: RFC 6749 §4.1.3, §4.4, §6, RFC 7636 §4.5; client authentication §2.3.1.
    /// RFC 6749 §4.1.3 `grant_type`: a ``GrantType`` raw value.
    public static let grantType = "grant_type"
    /// RFC 7636 §4.5 `code_verifier`: the PKCE secret the code challenge was made from.
    public static let codeVerifier = "code_verifier"
    /// RFC 6749 §6 `refresh_token`: the refresh token to redeem.
    public static let refreshToken = "refresh_token"
    /// RFC 6749 §2.3.1 `client_secret` in the request body (`client_secret_post`).
    public static let clientSecret = "client_secret"

    // Revocation and introspection: RFC 7009 §2.1, RFC 7662 §2.1.
    /// RFC 7009 §2.1 and RFC 7662 §2.1 `token`: the token to revoke or introspect.
    public static let token = "token"
    /// RFC 7009 §2.1 and RFC 7662 §2.1 `token_type_hint`: a ``TokenTypeHint`` raw value.
    public static let tokenTypeHint = "token_type_hint"

    // RP-Initiated Logout 1.0 §2.
    /// RP-Initiated Logout 1.0 §2 `post_logout_redirect_uri`: where the browser goes after
    /// sign-out; must be registered.
    public static let postLogoutRedirectURI = "post_logout_redirect_uri"
    /// RP-Initiated Logout 1.0 §2 `logout_hint`: which user to sign out.
    public static let logoutHint = "logout_hint"
}

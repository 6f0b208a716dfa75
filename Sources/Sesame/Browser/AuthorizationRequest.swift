import Foundation
import SesameProtocol

/// An OAuth 2.0 authorization request (RFC 6749 §4.1.1, OIDC Core §3.1.2.1) with PKCE S256
/// (RFC 7636 §4.3), a fresh `state` (RFC 6749 §10.12) and `nonce` (OIDC Core §15.5.2).
/// Fresh values are generated for every attempt and never reused.
public struct AuthorizationRequest: Sendable {
    /// The issuer this request goes to, kept for the RFC 9207 mix-up check.
    public let issuer: String
    /// The `client_id` sent (RFC 6749 §2.2), from ``SesameConfiguration/clientID``.
    public let clientID: String
    /// The `redirect_uri` sent (the browser session's); the callback must match it (RFC 8252 §7.1, §7.3).
    public let redirectURI: URL
    /// The scopes requested in `scope`: always `openid` (OIDC Core §3.1.2.1), plus `device_sso`
    /// when single sign-on is on (OpenID Connect Native SSO §3.1).
    public let scopes: [String]
    /// The random `state` the callback must echo back, against CSRF (RFC 6749 §10.12).
    public let state: String
    /// The random `nonce` the ID token must carry, against replay (OIDC Core §3.1.2.1, §15.5.2).
    public let nonce: String
    /// The PKCE pair: the challenge is in the URL, the verifier is sent only with the code (RFC 7636 §4).
    public let pkce: PKCE
    /// The per-sign-in options (`prompt`, `max_age`, `acr_values`, ...) the URL was built from.
    public let options: SignInOptions
    /// The full URL to open in the browser.
    public let url: URL
    /// The parameters in `url`'s query, in order: what a pushed request sends (RFC 9126 §2.1).
    let parameters: [(String, String)]

    /// Parameters the app may not override through ``SignInOptions/extraParameters``.
    static let reservedParameters: Set<String> = [
        "response_type", "client_id", "redirect_uri", "scope", "state", "nonce", "code_challenge",
        "code_challenge_method", "prompt", "login_hint", "max_age", "acr_values", "claims",
        "ui_locales", "response_mode", "request", "request_uri", "dpop_jkt",
    ]

    init(
        metadata: ProviderMetadata, clientID: String, redirectURI: URL, scopes: [String],
        options: SignInOptions, dpopJKT: String? = nil, resources: [URL] = []
    ) throws(SesameError) {
        issuer = metadata.issuer
        self.clientID = clientID
        self.redirectURI = redirectURI
        self.scopes = scopes
        self.options = options
        state = SecureRandom.token()
        nonce = SecureRandom.token()
        pkce = PKCE()
        if let methods = metadata.codeChallengeMethodsSupported, !methods.contains(PKCE.method) {
            throw .protocolViolation("the provider does not support PKCE S256 (code_challenge_methods_supported: \(methods))")
        }
        var parameters: [(String, String)] = [
            (OAuthParameter.responseType, "code"), (OAuthParameter.clientID, clientID),
            (OAuthParameter.redirectURI, redirectURI.absoluteString), (OAuthParameter.scope, ScopeList.format(scopes)),
            (OAuthParameter.state, state), (OAuthParameter.nonce, nonce), (OAuthParameter.codeChallenge, pkce.challenge),
            (OAuthParameter.codeChallengeMethod, PKCE.method),
        ]
        if let prompt = options.prompt, !prompt.isEmpty {
            parameters.append((OAuthParameter.prompt, prompt.joined(separator: " ")))
        }
        if let loginHint = options.loginHint { parameters.append((OAuthParameter.loginHint, loginHint)) }
        if let maxAge = options.maxAge { parameters.append((OAuthParameter.maxAge, String(maxAge))) }
        if let acr = options.acrValues, !acr.isEmpty {
            parameters.append((OAuthParameter.acrValues, acr.joined(separator: " ")))
        }
        // OIDC Core §5.5: the `claims` request, as its JSON object.
        if let claims = options.claims, !claims.isEmpty {
            parameters.append((OAuthParameter.claims, claims.json))
        }
        if let locales = options.uiLocales, !locales.isEmpty {
            parameters.append((OAuthParameter.uiLocales, locales.joined(separator: " ")))
        }
        // RFC 9449 §10: the code is bound to the account's DPoP key.
        if let dpopJKT { parameters.append((DPoP.jktParameter, dpopJKT)) }
        // RFC 8707 §2: the APIs the grant is for, one parameter each.
        for resource in resources { parameters.append((OAuthParameter.resource, resource.absoluteString)) }
        for (name, value) in options.extraParameters.sorted(by: { $0.key < $1.key }) {
            guard !Self.reservedParameters.contains(name) else {
                throw .invalidConfiguration("the extra parameter \"\(name)\" is set by Sesame itself; use the matching SignInOptions property instead")
            }
            parameters.append((name, value))
        }
        self.parameters = parameters
        url = try Self.url(metadata.authorizationEndpoint, parameters)
    }

    /// `/authorize` with `parameters` appended to the endpoint's own query.
    static func url(_ endpoint: URL, _ parameters: [(String, String)]) throws(SesameError) -> URL {
        guard var components = URLComponents(url: endpoint, resolvingAgainstBaseURL: false) else {
            throw .protocolViolation("the authorization_endpoint is not a valid URL")
        }
        let existing = components.percentEncodedQuery.map { $0 + "&" } ?? ""
        components.percentEncodedQuery = existing + FormURLEncoding.encode(parameters)
        guard let url = components.url else {
            throw .protocolViolation("could not build the authorization URL")
        }
        return url
    }

    /// RFC 9126 §4: the URL for a pushed request, carrying only `client_id` and `requestURI`.
    func pushedURL(_ metadata: ProviderMetadata, requestURI: String) throws(SesameError) -> URL {
        try Self.url(metadata.authorizationEndpoint, [(OAuthParameter.clientID, clientID), (OAuthParameter.requestURI, requestURI)])
    }
}

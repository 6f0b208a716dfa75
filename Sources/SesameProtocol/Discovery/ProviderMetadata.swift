import Foundation

/// OpenID Provider / OAuth 2.0 Authorization Server metadata:
/// OpenID Connect Discovery 1.0 §3 and RFC 8414 §2, plus RFC 9207 §3 (`iss` parameter),
/// RFC 8252-relevant PKCE methods (RFC 7636 via RFC 8414), RFC 7009, RFC 7662, RP-Initiated
/// Logout 1.0 §2.1 and the authorization challenge endpoint of OAuth 2.0 for First-Party
/// Applications.
///
/// Only `issuer`, `authorization_endpoint`, `token_endpoint` and `jwks_uri` are required when
/// decoding, so that the SDK works against any standard provider; everything else is optional.
public struct ProviderMetadata: Codable, Sendable, Equatable {
    /// OpenID Connect Discovery 1.0 §3 `issuer`: the provider's identifier. The SDK requires it to
    /// equal the configured issuer (§4.3); it is the `iss` of every token.
    public var issuer: String
    /// OpenID Connect Discovery 1.0 §3 `authorization_endpoint`: where the browser sign-in starts
    /// (RFC 6749 §3.1).
    public var authorizationEndpoint: URL
    /// OpenID Connect Discovery 1.0 §3 `token_endpoint`: where codes, refresh tokens and exchanges
    /// are redeemed (RFC 6749 §3.2).
    public var tokenEndpoint: URL
    /// OpenID Connect Discovery 1.0 §3 `jwks_uri`: the JWK Set whose keys sign the ID tokens and
    /// access tokens.
    public var jwksURI: URL
    /// OpenID Connect Discovery 1.0 §3 `userinfo_endpoint`: the user's claims for a bearer access
    /// token (OIDC Core §5.3).
    public var userinfoEndpoint: URL?
    /// OpenID Connect Discovery 1.0 §3 `registration_endpoint` (dynamic client registration).
    /// Sesame has none: the operator registers clients.
    public var registrationEndpoint: URL?
    /// RFC 8414 §2 `revocation_endpoint`: where tokens are revoked (RFC 7009).
    public var revocationEndpoint: URL?
    /// RFC 8414 §2 `introspection_endpoint`: where resource servers check tokens (RFC 7662).
    public var introspectionEndpoint: URL?
    /// RP-Initiated Logout 1.0 §2.1 `end_session_endpoint`: where the browser session signs out.
    public var endSessionEndpoint: URL?
    /// draft-ietf-oauth-first-party-apps §4.1.
    public var authorizationChallengeEndpoint: URL?
    /// OpenID Connect Discovery 1.0 §3 `scopes_supported`: scope values the provider knows, e.g.
    /// `openid`, `offline_access`.
    public var scopesSupported: [String]?
    /// OpenID Connect Discovery 1.0 §3 `response_types_supported`; Sesame supports `code` only.
    public var responseTypesSupported: [String]?
    /// OpenID Connect Discovery 1.0 §3 `response_modes_supported`; Sesame uses `query`.
    public var responseModesSupported: [String]?
    /// OpenID Connect Discovery 1.0 §3 `grant_types_supported`: the `grant_type` values the token
    /// endpoint accepts.
    public var grantTypesSupported: [String]?
    /// OpenID Connect Discovery 1.0 §3 `subject_types_supported`: `public` (one `sub` for every
    /// client) or `pairwise`.
    public var subjectTypesSupported: [String]?
    /// OpenID Connect Discovery 1.0 §3 `id_token_signing_alg_values_supported`: JWS `alg` values of
    /// ID tokens, e.g. `RS256`, `ES256`.
    public var idTokenSigningAlgValuesSupported: [String]?
    /// OpenID Connect Discovery 1.0 §3 `userinfo_signing_alg_values_supported`; absent when
    /// UserInfo answers plain JSON.
    public var userinfoSigningAlgValuesSupported: [String]?
    /// OpenID Connect Discovery 1.0 §3 `token_endpoint_auth_methods_supported`: client
    /// authentication methods (``ClientAuthenticationMethod`` raw values).
    public var tokenEndpointAuthMethodsSupported: [String]?
    /// OpenID Connect Discovery 1.0 §3 `token_endpoint_auth_signing_alg_values_supported`: `alg`
    /// values accepted for `private_key_jwt` client assertions.
    public var tokenEndpointAuthSigningAlgValuesSupported: [String]?
    /// RFC 8414 §2 `revocation_endpoint_auth_methods_supported`.
    public var revocationEndpointAuthMethodsSupported: [String]?
    /// RFC 8414 §2 `introspection_endpoint_auth_methods_supported`; Sesame lists no `none`: only
    /// confidential clients may introspect.
    public var introspectionEndpointAuthMethodsSupported: [String]?
    /// OpenID Connect Discovery 1.0 §3 `claims_supported`: claim names the provider may return.
    public var claimsSupported: [String]?
    /// RFC 8414 §2 `code_challenge_methods_supported` (RFC 7636); Sesame supports `S256` only.
    public var codeChallengeMethodsSupported: [String]?
    /// OpenID Connect Discovery 1.0 §3 `acr_values_supported`, e.g. `urn:sesame:acr:pwd` and
    /// `urn:sesame:acr:mfa`.
    public var acrValuesSupported: [String]?
    /// OpenID Connect Discovery 1.0 §3 `ui_locales_supported`: BCP 47 tags of the languages of
    /// hosted pages and messages.
    public var uiLocalesSupported: [String]?
    /// OpenID Connect Discovery 1.0 §3 `claims_parameter_supported`: whether the `claims` parameter
    /// (OIDC Core §5.5) is honoured; absent means `false`.
    public var claimsParameterSupported: Bool?
    /// OpenID Connect Discovery 1.0 §3 `request_parameter_supported` (OIDC Core §6.1); absent means
    /// `false`.
    public var requestParameterSupported: Bool?
    /// OpenID Connect Discovery 1.0 §3 `request_uri_parameter_supported` (OIDC Core §6.2); absent
    /// means `true`, as §3 defines the default.
    public var requestURIParameterSupported: Bool?
    /// RFC 9126 §5 `pushed_authorization_request_endpoint`: where a client pushes its
    /// authorization request before sending the browser to `/authorize` with a `request_uri`.
    public var pushedAuthorizationRequestEndpoint: URL?
    /// RFC 9126 §5 `require_pushed_authorization_requests`: `true` when every client must push
    /// its requests (a client may be required to even when this is absent or `false`).
    public var requirePushedAuthorizationRequests: Bool?
    /// RFC 8628 §4 `device_authorization_endpoint`: where a device without a browser asks for a
    /// device code and a user code.
    public var deviceAuthorizationEndpoint: URL?
    /// RFC 9449 §5.1 `dpop_signing_alg_values_supported`: the algorithms the server accepts in
    /// DPoP proofs; present when it binds tokens to DPoP keys.
    public var dpopSigningAlgValuesSupported: [String]?
    /// RFC 9207 §3: when `true`, clients MUST check the `iss` authorization response parameter.
    public var authorizationResponseIssParameterSupported: Bool?
    /// OpenID Connect Discovery 1.0 §3 `service_documentation`: a page for developers about the
    /// provider.
    public var serviceDocumentation: URL?
    /// Native SSO 1.0 §5 `native_sso_supported`; absent means unsupported.
    public var nativeSSOSupported: Bool?
    /// RFC 8705 §3.3 `tls_client_certificate_bound_access_tokens`: `true` when the server binds
    /// access tokens to TLS client certificates.
    public var tlsClientCertificateBoundAccessTokens: Bool?
    /// RFC 8705 §5 `mtls_endpoint_aliases`: where clients that authenticate with a TLS client
    /// certificate, or want certificate-bound tokens, send their requests instead (endpoint
    /// metadata names, such as `token_endpoint`, to URLs).
    public var mtlsEndpointAliases: [String: URL]?

    /// Metadata with the members given; only the four required ones have no default.
    public init(
        issuer: String, authorizationEndpoint: URL, tokenEndpoint: URL, jwksURI: URL,
        userinfoEndpoint: URL? = nil, registrationEndpoint: URL? = nil,
        revocationEndpoint: URL? = nil, introspectionEndpoint: URL? = nil,
        endSessionEndpoint: URL? = nil, authorizationChallengeEndpoint: URL? = nil,
        scopesSupported: [String]? = nil, responseTypesSupported: [String]? = nil,
        responseModesSupported: [String]? = nil, grantTypesSupported: [String]? = nil,
        subjectTypesSupported: [String]? = nil, idTokenSigningAlgValuesSupported: [String]? = nil,
        userinfoSigningAlgValuesSupported: [String]? = nil,
        tokenEndpointAuthMethodsSupported: [String]? = nil,
        tokenEndpointAuthSigningAlgValuesSupported: [String]? = nil,
        revocationEndpointAuthMethodsSupported: [String]? = nil,
        introspectionEndpointAuthMethodsSupported: [String]? = nil,
        claimsSupported: [String]? = nil, codeChallengeMethodsSupported: [String]? = nil,
        acrValuesSupported: [String]? = nil, uiLocalesSupported: [String]? = nil,
        claimsParameterSupported: Bool? = nil, requestParameterSupported: Bool? = nil,
        requestURIParameterSupported: Bool? = nil,
        authorizationResponseIssParameterSupported: Bool? = nil, serviceDocumentation: URL? = nil,
        nativeSSOSupported: Bool? = nil, pushedAuthorizationRequestEndpoint: URL? = nil,
        requirePushedAuthorizationRequests: Bool? = nil
    ) {
        self.issuer = issuer
        self.authorizationEndpoint = authorizationEndpoint
        self.tokenEndpoint = tokenEndpoint
        self.jwksURI = jwksURI
        self.userinfoEndpoint = userinfoEndpoint
        self.registrationEndpoint = registrationEndpoint
        self.revocationEndpoint = revocationEndpoint
        self.introspectionEndpoint = introspectionEndpoint
        self.endSessionEndpoint = endSessionEndpoint
        self.authorizationChallengeEndpoint = authorizationChallengeEndpoint
        self.scopesSupported = scopesSupported
        self.responseTypesSupported = responseTypesSupported
        self.responseModesSupported = responseModesSupported
        self.grantTypesSupported = grantTypesSupported
        self.subjectTypesSupported = subjectTypesSupported
        self.idTokenSigningAlgValuesSupported = idTokenSigningAlgValuesSupported
        self.userinfoSigningAlgValuesSupported = userinfoSigningAlgValuesSupported
        self.tokenEndpointAuthMethodsSupported = tokenEndpointAuthMethodsSupported
        self.tokenEndpointAuthSigningAlgValuesSupported = tokenEndpointAuthSigningAlgValuesSupported
        self.revocationEndpointAuthMethodsSupported = revocationEndpointAuthMethodsSupported
        self.introspectionEndpointAuthMethodsSupported = introspectionEndpointAuthMethodsSupported
        self.claimsSupported = claimsSupported
        self.codeChallengeMethodsSupported = codeChallengeMethodsSupported
        self.acrValuesSupported = acrValuesSupported
        self.uiLocalesSupported = uiLocalesSupported
        self.claimsParameterSupported = claimsParameterSupported
        self.requestParameterSupported = requestParameterSupported
        self.requestURIParameterSupported = requestURIParameterSupported
        self.authorizationResponseIssParameterSupported = authorizationResponseIssParameterSupported
        self.serviceDocumentation = serviceDocumentation
        self.nativeSSOSupported = nativeSSOSupported
        self.pushedAuthorizationRequestEndpoint = pushedAuthorizationRequestEndpoint
        self.requirePushedAuthorizationRequests = requirePushedAuthorizationRequests
    }

    enum CodingKeys: String, CodingKey {
        case issuer
        case authorizationEndpoint = "authorization_endpoint"
        case tokenEndpoint = "token_endpoint"
        case jwksURI = "jwks_uri"
        case userinfoEndpoint = "userinfo_endpoint"
        case registrationEndpoint = "registration_endpoint"
        case revocationEndpoint = "revocation_endpoint"
        case introspectionEndpoint = "introspection_endpoint"
        case endSessionEndpoint = "end_session_endpoint"
        case authorizationChallengeEndpoint = "authorization_challenge_endpoint"
        case scopesSupported = "scopes_supported"
        case responseTypesSupported = "response_types_supported"
        case responseModesSupported = "response_modes_supported"
        case grantTypesSupported = "grant_types_supported"
        case subjectTypesSupported = "subject_types_supported"
        case idTokenSigningAlgValuesSupported = "id_token_signing_alg_values_supported"
        case userinfoSigningAlgValuesSupported = "userinfo_signing_alg_values_supported"
        case tokenEndpointAuthMethodsSupported = "token_endpoint_auth_methods_supported"
        case tokenEndpointAuthSigningAlgValuesSupported = "token_endpoint_auth_signing_alg_values_supported"
        case revocationEndpointAuthMethodsSupported = "revocation_endpoint_auth_methods_supported"
        case introspectionEndpointAuthMethodsSupported = "introspection_endpoint_auth_methods_supported"
        case claimsSupported = "claims_supported"
        case codeChallengeMethodsSupported = "code_challenge_methods_supported"
        case acrValuesSupported = "acr_values_supported"
        case uiLocalesSupported = "ui_locales_supported"
        case claimsParameterSupported = "claims_parameter_supported"
        case requestParameterSupported = "request_parameter_supported"
        case requestURIParameterSupported = "request_uri_parameter_supported"
        case pushedAuthorizationRequestEndpoint = "pushed_authorization_request_endpoint"
        case requirePushedAuthorizationRequests = "require_pushed_authorization_requests"
        case dpopSigningAlgValuesSupported = "dpop_signing_alg_values_supported"
        case deviceAuthorizationEndpoint = "device_authorization_endpoint"
        case authorizationResponseIssParameterSupported = "authorization_response_iss_parameter_supported"
        case serviceDocumentation = "service_documentation"
        case nativeSSOSupported = "native_sso_supported"
        case tlsClientCertificateBoundAccessTokens = "tls_client_certificate_bound_access_tokens"
        case mtlsEndpointAliases = "mtls_endpoint_aliases"
    }
}

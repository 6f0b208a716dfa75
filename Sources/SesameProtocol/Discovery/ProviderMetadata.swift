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
    public var issuer: String
    public var authorizationEndpoint: URL
    public var tokenEndpoint: URL
    public var jwksURI: URL
    public var userinfoEndpoint: URL?
    public var registrationEndpoint: URL?
    public var revocationEndpoint: URL?
    public var introspectionEndpoint: URL?
    public var endSessionEndpoint: URL?
    /// draft-ietf-oauth-first-party-apps §4.1.
    public var authorizationChallengeEndpoint: URL?
    public var scopesSupported: [String]?
    public var responseTypesSupported: [String]?
    public var responseModesSupported: [String]?
    public var grantTypesSupported: [String]?
    public var subjectTypesSupported: [String]?
    public var idTokenSigningAlgValuesSupported: [String]?
    public var userinfoSigningAlgValuesSupported: [String]?
    public var tokenEndpointAuthMethodsSupported: [String]?
    public var tokenEndpointAuthSigningAlgValuesSupported: [String]?
    public var revocationEndpointAuthMethodsSupported: [String]?
    public var introspectionEndpointAuthMethodsSupported: [String]?
    public var claimsSupported: [String]?
    public var codeChallengeMethodsSupported: [String]?
    public var acrValuesSupported: [String]?
    public var uiLocalesSupported: [String]?
    public var claimsParameterSupported: Bool?
    public var requestParameterSupported: Bool?
    public var requestURIParameterSupported: Bool?
    /// RFC 9207 §3: when `true`, clients MUST check the `iss` authorization response parameter.
    public var authorizationResponseIssParameterSupported: Bool?
    public var serviceDocumentation: URL?
    /// Native SSO 1.0 §5 `native_sso_supported`; absent means unsupported.
    public var nativeSSOSupported: Bool?

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
        nativeSSOSupported: Bool? = nil
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
        case authorizationResponseIssParameterSupported = "authorization_response_iss_parameter_supported"
        case serviceDocumentation = "service_documentation"
        case nativeSSOSupported = "native_sso_supported"
    }
}

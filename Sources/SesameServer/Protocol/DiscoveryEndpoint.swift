import Foundation
import HTTPTypes
import Hummingbird
import SesameProtocol

/// OpenID Connect Discovery 1.0 §4 (`/.well-known/openid-configuration`) and RFC 8414 §3
/// (`/.well-known/oauth-authorization-server`). Advertises exactly what is implemented.
/// The document is encoded once at start.
struct DiscoveryEndpoint: Sendable {
    let document: Data
    /// `document` in a buffer shared by every response (no copy per request).
    private let body: ByteBuffer

    /// - Parameter issuer: the issuer identifier (no trailing slash); every endpoint is under it.
    /// - Parameter requirePushedRequests: whether every client must use `/par` (RFC 9126 §5).
    /// - Parameter dpopAlgorithms: the algorithms accepted in DPoP proofs (RFC 9449 §5.1).
    /// - Parameter mutualTLS: whether client certificates are read (RFC 8705 §2.1.1, §3.3): the two
    ///   certificate methods and certificate-bound tokens are then advertised.
    /// - Parameter mutualTLSOrigin: the origin of the port that asks for client certificates,
    ///   when it is not the issuer's (RFC 8705 §5 `mtls_endpoint_aliases`).
    /// - Parameter registration: whether `/register` is open (RFC 8414 §2 `registration_endpoint`).
    init(
        issuer: String, requirePushedRequests: Bool = false, dpopAlgorithms: [String] = DPoP.signingAlgorithms,
        mutualTLS: Bool = false, mutualTLSOrigin: String? = nil, registration: Bool = false
    ) throws {
        var metadata = Self.metadata(issuer: issuer)
        if registration { metadata.registrationEndpoint = URL(string: issuer + ClientRegistrationPolicy.path) }
        if mutualTLS {
            let methods = [ClientAuthenticationMethod.tlsClientAuth.rawValue, ClientAuthenticationMethod.selfSignedTLSClientAuth.rawValue]
            metadata.tokenEndpointAuthMethodsSupported? += methods
            metadata.revocationEndpointAuthMethodsSupported? += methods
            metadata.introspectionEndpointAuthMethodsSupported? += methods
            metadata.tlsClientCertificateBoundAccessTokens = true
            if let origin = mutualTLSOrigin {
                metadata.mtlsEndpointAliases = Self.mutualTLSAliases(origin: origin)
            }
        }
        metadata.dpopSigningAlgValuesSupported = dpopAlgorithms
        metadata.pushedAuthorizationRequestEndpoint = URL(string: issuer + "/par")
        metadata.deviceAuthorizationEndpoint = URL(string: issuer + "/device_authorization")
        metadata.requirePushedAuthorizationRequests = requirePushedRequests
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        self.document = try encoder.encode(metadata)
        self.body = ByteBuffer(bytes: document)
    }

    static func metadata(issuer: String) -> ProviderMetadata {
        let url = { (path: String) in URL(string: issuer + path)! }
        let secretMethods = [
            ClientAuthenticationMethod.clientSecretBasic.rawValue,
            ClientAuthenticationMethod.clientSecretPost.rawValue,
        ]
        return ProviderMetadata(
            issuer: issuer,
            authorizationEndpoint: url("/authorize"),
            tokenEndpoint: url("/token"),
            jwksURI: url("/jwks"),
            userinfoEndpoint: url("/userinfo"),
            revocationEndpoint: url("/revoke"),
            introspectionEndpoint: url("/introspect"),
            endSessionEndpoint: url("/logout"),
            authorizationChallengeEndpoint: url("/authorize-challenge"),
            scopesSupported: ["openid", "profile", "email", "phone", "address", "offline_access", NativeSSO.scope],
            responseTypesSupported: ["code"],
            responseModesSupported: ["query"],
            grantTypesSupported: [
                GrantType.authorizationCode.rawValue, GrantType.refreshToken.rawValue,
                GrantType.clientCredentials.rawValue, GrantType.tokenExchange.rawValue, GrantType.deviceCode.rawValue,
            ],
            subjectTypesSupported: ["public"],
            idTokenSigningAlgValuesSupported: ["RS256", "ES256"],
            tokenEndpointAuthMethodsSupported: secretMethods + [
                ClientAuthenticationMethod.privateKeyJWT.rawValue, ClientAuthenticationMethod.none.rawValue,
            ],
            tokenEndpointAuthSigningAlgValuesSupported: ["ES256", "RS256", "EdDSA"],
            revocationEndpointAuthMethodsSupported: secretMethods + [
                ClientAuthenticationMethod.privateKeyJWT.rawValue, ClientAuthenticationMethod.none.rawValue,
            ],
            introspectionEndpointAuthMethodsSupported: secretMethods + [ClientAuthenticationMethod.privateKeyJWT.rawValue],
            claimsSupported: [
                "sub", "iss", "aud", "exp", "iat", "auth_time", "nonce", "acr", "amr", "azp", "sid",
                "at_hash", NativeSSO.deviceSecretHashClaim, "name", "given_name", "family_name", "middle_name", "nickname",
                "preferred_username", "profile", "picture", "website", "email", "email_verified",
                "gender", "birthdate", "zoneinfo", "locale", "phone_number",
                "phone_number_verified", "address", "updated_at",
            ],
            codeChallengeMethodsSupported: [PKCE.method],
            acrValuesSupported: AuthenticationContextClass.all,
            uiLocalesSupported: StringTables.tags,
            claimsParameterSupported: true,
            requestParameterSupported: false,
            requestURIParameterSupported: false,
            authorizationResponseIssParameterSupported: true,
            nativeSSOSupported: true)
    }

    /// RFC 8705 §5: every endpoint a client authenticates at, or presents a bound token to, on
    /// the port that asks for certificates.
    static func mutualTLSAliases(origin: String) -> [String: URL] {
        let paths = [
            "token_endpoint": "/token", "revocation_endpoint": "/revoke", "introspection_endpoint": "/introspect",
            "userinfo_endpoint": "/userinfo", "pushed_authorization_request_endpoint": "/par",
            "device_authorization_endpoint": "/device_authorization",
        ]
        return paths.compactMapValues { URL(string: origin + $0) }
    }

    /// The paths that serve the document.
    static let paths = ["/.well-known/openid-configuration", "/.well-known/oauth-authorization-server"]

    /// The fields of every answer: JSON, cacheable for five minutes, readable from any origin.
    static let fields: HTTPFields = [
        .contentType: "application/json", .cacheControl: "public, max-age=300", .accessControlAllowOrigin: "*",
    ]

    func handle(_ request: Request, context: SesameRequestContext) -> Response {
        Response(status: .ok, headers: Self.fields, body: ResponseBody(byteBuffer: body))
    }

    /// The answers ``StaticDocumentResponder`` gives on the event loop, the same as ``handle``'s.
    func staticDocuments(https: Bool) -> [String: StaticDocuments.Document] {
        Dictionary(
            uniqueKeysWithValues: Self.paths.map {
                ($0, StaticDocuments.Document(route: $0, response: Self.fields, body: body, https: https))
            })
    }
}

/// `acr` values Sesame asserts (OIDC Core §2). Password sign-in is the only level until MFA.
enum AuthenticationLevels {
    static let password = "urn:sesame:acr:pwd"
}

import SesameStore
import Foundation
import SesameProtocol

/// What an administrator asks for when registering a client (`sesame client add`), in RFC 7591
/// §2 terms. ``ServerAdmin/addClient(_:)`` validates it (``ClientValidation``) and turns it into
/// a ``ClientRecord``.
public struct ClientSpec: Sendable, Equatable {
    public var clientID: String
    public var name: String
    /// Confidential clients (RFC 6749 §2.1) get a generated secret; public clients (native and
    /// browser apps) authenticate with `none` and must use PKCE.
    public var confidential: Bool
    public var redirectURIs: [String]
    public var postLogoutRedirectURIs: [String]
    public var grantTypes: [GrantType]
    public var scopes: [String]
    /// `nil`: `client_secret_basic` for confidential clients, `none` for public ones.
    public var tokenEndpointAuthMethod: ClientAuthenticationMethod?
    /// `RS256` (default) or `ES256` (OIDC Core §3.1.3.7 step 7, `id_token_signed_response_alg`).
    public var idTokenSigningAlg: String
    /// `RS256` (default) or `ES256` for the client's JWT access tokens (RFC 9068 §2.1,
    /// ``ClientRecord/accessTokenSigningAlg``).
    public var accessTokenSigningAlg: String
    public var accessTokenLifetime: Int
    public var idTokenLifetime: Int
    public var refreshTokenLifetime: Int
    /// Whether sign-ins ask for a second factor (docs/first-party-and-accounts.md).
    public var mfaPolicy: MFAPolicy
    /// May use `/authorize-challenge` and the account APIs (``ClientRecord/firstParty``).
    public var firstParty: Bool
    /// The app group whose apps share sign-ins (Native SSO; ``ClientRecord/appGroup``).
    public var appGroup: String?
    /// The public keys of a `private_key_jwt` client (RFC 7523), a JSON Web Key Set.
    public var jwks: String?
    /// Whether the client's authorization requests must be pushed to `/par` first (RFC 9126 §6,
    /// ``ClientRecord/requirePushedRequests``).
    public var requirePushedRequests = false
    /// Whether every token request must carry a DPoP proof, so all the client's tokens are
    /// sender-constrained (RFC 9449 §5.2, ``ClientRecord/dpopBoundAccessTokens``).
    public var dpopBoundAccessTokens = false
    /// The security profile (``ClientRecord/securityProfile``): `fapi2` requires keys
    /// (`private_key_jwt`) and ES256, and turns on PAR and DPoP (docs/fapi2.md).
    public var securityProfile: ClientSecurityProfile = .standard
    /// May introspect any client's tokens (a resource server; ``ClientRecord/introspectsAnyToken``).
    public var introspectsAnyToken = false
    /// This client's device-code lifetime in seconds (RFC 8628 §3.2); `nil`: the server's.
    public var deviceCodeLifetime: Int?
    /// This client's device polling interval in seconds (RFC 8628 §3.2); `nil`: the server's.
    public var devicePollInterval: Int?
    /// The certificate of a `tls_client_auth` client (RFC 8705 §2.1.2; ``ClientRecord/tlsClientAuthSubject``).
    public var tlsClientAuthSubject: TLSClientAuthSubject?
    /// Access tokens bound to the client's TLS certificate (RFC 8705 §3;
    /// ``ClientRecord/certificateBoundAccessTokens``).
    public var certificateBoundAccessTokens = false
    /// The registered APIs the client may ask tokens for (RFC 8707; ``ClientRecord/resources``).
    public var resources: [String] = []
    /// The API a token is for when a request names none (``ClientRecord/defaultResource``).
    public var defaultResource: String?

    public init(
        clientID: String, name: String? = nil, confidential: Bool = false,
        redirectURIs: [String] = [], postLogoutRedirectURIs: [String] = [],
        grantTypes: [GrantType] = [.authorizationCode, .refreshToken],
        scopes: [String] = ClientRecord.defaultAllowedScopes,
        tokenEndpointAuthMethod: ClientAuthenticationMethod? = nil,
        idTokenSigningAlg: String = "RS256", accessTokenSigningAlg: String = "RS256", accessTokenLifetime: Int = 900,
        idTokenLifetime: Int = 900, refreshTokenLifetime: Int = 30 * 24 * 3600,
        mfaPolicy: MFAPolicy = .whenEnrolled, firstParty: Bool = false, appGroup: String? = nil,
        jwks: String? = nil
    ) {
        self.clientID = clientID
        self.name = name ?? clientID
        self.confidential = confidential
        self.redirectURIs = redirectURIs
        self.postLogoutRedirectURIs = postLogoutRedirectURIs
        self.grantTypes = grantTypes
        self.scopes = scopes
        self.tokenEndpointAuthMethod = tokenEndpointAuthMethod
        self.idTokenSigningAlg = idTokenSigningAlg
        self.accessTokenSigningAlg = accessTokenSigningAlg
        self.accessTokenLifetime = accessTokenLifetime
        self.idTokenLifetime = idTokenLifetime
        self.refreshTokenLifetime = refreshTokenLifetime
        self.mfaPolicy = mfaPolicy
        self.firstParty = firstParty
        self.appGroup = appGroup
        self.jwks = jwks
    }

    /// The authentication method that applies: the explicit one, or the default for the kind.
    public var effectiveAuthMethod: ClientAuthenticationMethod {
        tokenEndpointAuthMethod
            ?? (tlsClientAuthSubject != nil ? .tlsClientAuth : jwks != nil ? .privateKeyJWT : confidential ? .clientSecretBasic : .none)
    }
}

extension ClientSpec {
    /// The spec a registered client would be made from: every setting of `record`, for an edit
    /// that validates the whole client again (the admin API, issue #47).
    package init(_ record: ClientRecord) {
        self.init(
            // `confidential` is "has a secret": key and certificate clients authenticate without one.
            clientID: record.clientID, name: record.name, confidential: record.secretHash != nil,
            redirectURIs: record.redirectURIs, postLogoutRedirectURIs: record.postLogoutRedirectURIs,
            grantTypes: record.grantTypes, scopes: record.allowedScopes,
            tokenEndpointAuthMethod: record.tokenEndpointAuthMethod, idTokenSigningAlg: record.idTokenSigningAlg,
            accessTokenSigningAlg: record.accessTokenSigningAlg, accessTokenLifetime: record.accessTokenLifetime,
            idTokenLifetime: record.idTokenLifetime, refreshTokenLifetime: record.refreshTokenLifetime,
            mfaPolicy: record.mfaPolicy, firstParty: record.firstParty, appGroup: record.appGroup, jwks: record.jwks)
        requirePushedRequests = record.requirePushedRequests
        dpopBoundAccessTokens = record.dpopBoundAccessTokens
        securityProfile = record.securityProfile
        introspectsAnyToken = record.introspectsAnyToken
        deviceCodeLifetime = record.deviceCodeLifetime
        devicePollInterval = record.devicePollInterval
        tlsClientAuthSubject = record.tlsClientAuthSubject
        certificateBoundAccessTokens = record.certificateBoundAccessTokens
        resources = record.resources
        defaultResource = record.defaultResource
    }
}

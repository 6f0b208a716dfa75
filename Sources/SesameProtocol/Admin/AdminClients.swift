import Foundation

/// A registered client with every setting (`GET /admin/api/clients`, `sesame client list
/// --json`; issue #47), RFC 7591 §2 names where there is one. Never the secret's hash; the
/// secret itself only once, in the answer that created or rotated it.
public struct AdminClient: Codable, Sendable, Equatable {
    /// The `client_id`.
    public var clientID: String
    /// The name shown to users (`client_name`).
    public var name: String
    /// `public` or `confidential` (RFC 6749 §2.1).
    public var type: String
    /// The exact redirect URIs (RFC 6749 §3.1.2).
    public var redirectURIs: [String]
    /// Where RP-initiated logout may return to.
    public var postLogoutRedirectURIs: [String]
    /// The grants the client may use.
    public var grantTypes: [String]
    /// The scopes the client may ask for.
    public var scopes: [String]
    /// How the client authenticates at the token endpoint (RFC 7591 §2).
    public var tokenEndpointAuthMethod: String
    /// The ID token's `alg` (RS256 or ES256).
    public var idTokenSigningAlg: String
    /// The access token's `alg` (RS256 or ES256).
    public var accessTokenSigningAlg: String
    /// `never`, `when_enrolled` or `always`.
    public var mfaPolicy: String
    /// May use `/authorize-challenge` and the account APIs.
    public var firstParty: Bool
    /// The app group whose apps share sign-ins (Native SSO).
    public var appGroup: String?
    /// Lifetimes in seconds.
    public var accessTokenLifetime: Int
    /// Lifetimes in seconds.
    public var idTokenLifetime: Int
    /// Lifetimes in seconds.
    public var refreshTokenLifetime: Int
    /// Authorization requests must be pushed first (RFC 9126 §6).
    public var requirePushedRequests: Bool
    /// Every token request must carry a DPoP proof (RFC 9449 §5.2).
    public var dpopBoundAccessTokens: Bool
    /// `standard` or `fapi2`.
    public var securityProfile: String
    /// May introspect any client's tokens.
    public var introspectsAnyToken: Bool
    /// This client's device-code lifetime in seconds; absent: the server's.
    public var deviceCodeLifetime: Int?
    /// This client's device polling interval in seconds; absent: the server's.
    public var devicePollInterval: Int?
    /// The client secret, only in the answer that created or rotated it.
    public var clientSecret: String?
    /// The device-PIN policy the SDK enforces and the server's attempt limit (docs/pin-devices.md);
    /// the defaults unless an operator set one.
    public var pinPolicy: PINPolicy?
    /// The certificate of a `tls_client_auth` client (RFC 8705 §2.1.2), as its one metadata
    /// member (`{"tls_client_auth_subject_dn": "CN=…"}`); `nil` for other methods.
    public var tlsClientAuthSubject: TLSClientAuthSubject?
    /// RFC 8705 §3 `tls_client_certificate_bound_access_tokens`.
    public var tlsClientCertificateBoundAccessTokens = false
    /// The registered APIs the client may ask tokens for (RFC 8707 `resource`).
    public var resources: [String]?
    /// The API a token is for when a request names none; absent: the issuer.
    public var defaultResource: String?

    /// A client with every setting given.
    public init(
        clientID: String, name: String, type: String, redirectURIs: [String], postLogoutRedirectURIs: [String],
        grantTypes: [String], scopes: [String], tokenEndpointAuthMethod: String, idTokenSigningAlg: String,
        accessTokenSigningAlg: String, mfaPolicy: String, firstParty: Bool, appGroup: String?, accessTokenLifetime: Int,
        idTokenLifetime: Int, refreshTokenLifetime: Int, requirePushedRequests: Bool, dpopBoundAccessTokens: Bool,
        securityProfile: String, introspectsAnyToken: Bool, deviceCodeLifetime: Int?, devicePollInterval: Int?,
        clientSecret: String?, pinPolicy: PINPolicy? = nil
    ) {
        self.pinPolicy = pinPolicy
        self.clientID = clientID
        self.name = name
        self.type = type
        self.redirectURIs = redirectURIs
        self.postLogoutRedirectURIs = postLogoutRedirectURIs
        self.grantTypes = grantTypes
        self.scopes = scopes
        self.tokenEndpointAuthMethod = tokenEndpointAuthMethod
        self.idTokenSigningAlg = idTokenSigningAlg
        self.accessTokenSigningAlg = accessTokenSigningAlg
        self.mfaPolicy = mfaPolicy
        self.firstParty = firstParty
        self.appGroup = appGroup
        self.accessTokenLifetime = accessTokenLifetime
        self.idTokenLifetime = idTokenLifetime
        self.refreshTokenLifetime = refreshTokenLifetime
        self.requirePushedRequests = requirePushedRequests
        self.dpopBoundAccessTokens = dpopBoundAccessTokens
        self.securityProfile = securityProfile
        self.introspectsAnyToken = introspectsAnyToken
        self.deviceCodeLifetime = deviceCodeLifetime
        self.devicePollInterval = devicePollInterval
        self.clientSecret = clientSecret
    }

    enum CodingKeys: String, CodingKey {
        case clientID = "client_id"
        case name = "client_name"
        case type
        case redirectURIs = "redirect_uris"
        case postLogoutRedirectURIs = "post_logout_redirect_uris"
        case grantTypes = "grant_types"
        case scopes
        case tokenEndpointAuthMethod = "token_endpoint_auth_method"
        case idTokenSigningAlg = "id_token_signed_response_alg"
        case accessTokenSigningAlg = "access_token_signed_response_alg"
        case mfaPolicy = "mfa_policy"
        case firstParty = "first_party"
        case appGroup = "app_group"
        case accessTokenLifetime = "access_token_lifetime"
        case idTokenLifetime = "id_token_lifetime"
        case refreshTokenLifetime = "refresh_token_lifetime"
        case requirePushedRequests = "require_pushed_authorization_requests"
        case dpopBoundAccessTokens = "dpop_bound_access_tokens"
        case securityProfile = "security_profile"
        case introspectsAnyToken = "introspects_any_token"
        case deviceCodeLifetime = "device_code_lifetime"
        case devicePollInterval = "device_poll_interval"
        case clientSecret = "client_secret"
        case pinPolicy = "pin_policy"
        case tlsClientAuthSubject = "tls_client_auth_subject"
        case tlsClientCertificateBoundAccessTokens = "tls_client_certificate_bound_access_tokens"
        case resources
        case defaultResource = "default_resource"
    }
}

/// `GET /admin/api/clients`: every client, by id.
public struct AdminClientList: Codable, Sendable, Equatable {
    /// The clients.
    public var clients: [AdminClient]

    /// A list of `clients`.
    public init(clients: [AdminClient]) { self.clients = clients }
}

/// `POST /admin/api/clients/{client_id}`: the settings to change; absent members stay as they
/// are. The whole client is validated again, as `sesame client add` validates a new one.
public struct AdminClientUpdate: Codable, Sendable, Equatable {
    /// The name shown to users.
    public var name: String?
    /// The exact redirect URIs (replace the list).
    public var redirectURIs: [String]?
    /// Where RP-initiated logout may return to (replace the list).
    public var postLogoutRedirectURIs: [String]?
    /// The grants the client may use (replace the list).
    public var grantTypes: [String]?
    /// The scopes the client may ask for (replace the list).
    public var scopes: [String]?
    /// `never`, `when_enrolled` or `always`.
    public var mfaPolicy: String?
    /// May use `/authorize-challenge` and the account APIs.
    public var firstParty: Bool?
    /// Lifetimes in seconds.
    public var accessTokenLifetime: Int?
    /// Lifetimes in seconds.
    public var idTokenLifetime: Int?
    /// Lifetimes in seconds.
    public var refreshTokenLifetime: Int?
    /// Authorization requests must be pushed first (RFC 9126 §6).
    public var requirePushedRequests: Bool?
    /// Every token request must carry a DPoP proof (RFC 9449 §5.2).
    public var dpopBoundAccessTokens: Bool?
    /// The app group whose sibling apps share sign-ins (Native SSO); empty removes it.
    public var appGroup: String?
    /// `RS256` or `ES256` for ID tokens.
    public var idTokenSigningAlg: String?
    /// `RS256` or `ES256` for access tokens.
    public var accessTokenSigningAlg: String?
    /// `standard` or `fapi2`.
    public var securityProfile: String?
    /// The client's public keys (a JWK Set, as JSON text) for `private_key_jwt`.
    public var jwks: String?
    /// To create only (`POST /admin/api/clients`): the new client's id.
    public var clientID: String?
    /// To create only: a confidential client, whose secret is answered once.
    public var confidential: Bool?
    /// Changes to the device-PIN policy (the bank SDK's "maximum number of PIN attempts").
    public var pinPolicy: AdminPINPolicyUpdate?
    /// The registered APIs the client may ask tokens for (RFC 8707; replace the list).
    public var resources: [String]?
    /// The API a token is for when a request names none; empty: the issuer.
    public var defaultResource: String?

    /// An update of the given settings.
    public init(
        name: String? = nil, redirectURIs: [String]? = nil, postLogoutRedirectURIs: [String]? = nil,
        grantTypes: [String]? = nil, scopes: [String]? = nil, mfaPolicy: String? = nil, firstParty: Bool? = nil,
        accessTokenLifetime: Int? = nil, idTokenLifetime: Int? = nil, refreshTokenLifetime: Int? = nil,
        requirePushedRequests: Bool? = nil, dpopBoundAccessTokens: Bool? = nil, appGroup: String? = nil,
        idTokenSigningAlg: String? = nil, accessTokenSigningAlg: String? = nil, securityProfile: String? = nil,
        jwks: String? = nil, clientID: String? = nil, confidential: Bool? = nil, pinPolicy: AdminPINPolicyUpdate? = nil,
        resources: [String]? = nil, defaultResource: String? = nil
    ) {
        self.pinPolicy = pinPolicy
        self.resources = resources
        self.defaultResource = defaultResource
        self.appGroup = appGroup
        self.idTokenSigningAlg = idTokenSigningAlg
        self.accessTokenSigningAlg = accessTokenSigningAlg
        self.securityProfile = securityProfile
        self.jwks = jwks
        self.clientID = clientID
        self.confidential = confidential
        self.name = name
        self.redirectURIs = redirectURIs
        self.postLogoutRedirectURIs = postLogoutRedirectURIs
        self.grantTypes = grantTypes
        self.scopes = scopes
        self.mfaPolicy = mfaPolicy
        self.firstParty = firstParty
        self.accessTokenLifetime = accessTokenLifetime
        self.idTokenLifetime = idTokenLifetime
        self.refreshTokenLifetime = refreshTokenLifetime
        self.requirePushedRequests = requirePushedRequests
        self.dpopBoundAccessTokens = dpopBoundAccessTokens
    }

    enum CodingKeys: String, CodingKey {
        case name = "client_name"
        case redirectURIs = "redirect_uris"
        case postLogoutRedirectURIs = "post_logout_redirect_uris"
        case grantTypes = "grant_types"
        case scopes
        case mfaPolicy = "mfa_policy"
        case firstParty = "first_party"
        case accessTokenLifetime = "access_token_lifetime"
        case idTokenLifetime = "id_token_lifetime"
        case refreshTokenLifetime = "refresh_token_lifetime"
        case requirePushedRequests = "require_pushed_authorization_requests"
        case dpopBoundAccessTokens = "dpop_bound_access_tokens"
        case appGroup = "app_group"
        case idTokenSigningAlg = "id_token_signed_response_alg"
        case accessTokenSigningAlg = "access_token_signed_response_alg"
        case securityProfile = "security_profile"
        case jwks
        case clientID = "client_id"
        case confidential
        case pinPolicy = "pin_policy"
        case resources
        case defaultResource = "default_resource"
    }
}

/// The device-PIN settings an ``AdminClientUpdate`` changes; absent members stay as they are,
/// `restore_defaults` first puts back the bank SDK's defaults (``PINPolicy/init()``).
public struct AdminPINPolicyUpdate: Codable, Sendable, Equatable {
    /// Start from the default policy before applying the other members.
    public var restoreDefaults: Bool?
    /// The fewest digits, 4 to ``PINPolicy/maximumLength``.
    public var minimumLength: Int?
    /// Wrong PINs in a row before the registration is revoked, 1 to 10.
    public var maximumAttempts: Int?
    /// How often one digit may appear, at least 1.
    public var maximumRepeatedDigits: Int?
    /// Whether all-ascending or all-descending PINs are refused.
    public var forbidsSequences: Bool?
    /// PINs refused outright besides ``PINPolicy/commonPINs`` (replaces the operator's list).
    public var blacklist: [String]?

    /// An update of the given members.
    public init(
        restoreDefaults: Bool? = nil, minimumLength: Int? = nil, maximumAttempts: Int? = nil,
        maximumRepeatedDigits: Int? = nil, forbidsSequences: Bool? = nil, blacklist: [String]? = nil
    ) {
        self.restoreDefaults = restoreDefaults
        self.minimumLength = minimumLength
        self.maximumAttempts = maximumAttempts
        self.maximumRepeatedDigits = maximumRepeatedDigits
        self.forbidsSequences = forbidsSequences
        self.blacklist = blacklist
    }

    enum CodingKeys: String, CodingKey {
        case restoreDefaults = "restore_defaults"
        case minimumLength = "minimum_length"
        case maximumAttempts = "maximum_attempts"
        case maximumRepeatedDigits = "maximum_repeated_digits"
        case forbidsSequences = "forbids_sequences"
        case blacklist
    }
}

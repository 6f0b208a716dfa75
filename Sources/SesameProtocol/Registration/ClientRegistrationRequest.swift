import Foundation

/// The client metadata of a dynamic registration request (RFC 7591 §2, §3.1) and of an update
/// (RFC 7592 §2.2): what a client asks to be registered with. Members the server does not
/// understand are ignored (§2); those it understands but does not allow are refused with
/// `invalid_client_metadata` or `invalid_redirect_uri` (§3.2.2).
public struct ClientRegistrationRequest: Codable, Sendable, Equatable {
    /// §2 `redirect_uris`: `https` URIs, or loopback `http` ones (RFC 8252 §7.3).
    public var redirectURIs: [String]?
    /// §2 `token_endpoint_auth_method`: `none` (a public client with PKCE), or a secret method
    /// where the server allows confidential clients.
    public var tokenEndpointAuthMethod: String?
    /// §2 `grant_types`; absent: `authorization_code` and `refresh_token`.
    public var grantTypes: [String]?
    /// §2 `response_types`; only `code`.
    public var responseTypes: [String]?
    /// §2 `client_name`, shown on the sign-in pages.
    public var clientName: String?
    /// §2 `scope`: the scopes the client may ask for, space-separated.
    public var scope: String?
    /// §2 `software_id`: what the client is, the same for every installation.
    public var softwareID: String?
    /// §2 `software_version`: the version of ``softwareID``.
    public var softwareVersion: String?
    /// RFC 7592 §2.2: an update names the client it changes.
    public var clientID: String?

    /// A request with the given members.
    public init(
        redirectURIs: [String]? = nil, tokenEndpointAuthMethod: String? = nil, grantTypes: [String]? = nil,
        responseTypes: [String]? = nil, clientName: String? = nil, scope: String? = nil, softwareID: String? = nil,
        softwareVersion: String? = nil, clientID: String? = nil
    ) {
        self.redirectURIs = redirectURIs
        self.tokenEndpointAuthMethod = tokenEndpointAuthMethod
        self.grantTypes = grantTypes
        self.responseTypes = responseTypes
        self.clientName = clientName
        self.scope = scope
        self.softwareID = softwareID
        self.softwareVersion = softwareVersion
        self.clientID = clientID
    }

    enum CodingKeys: String, CodingKey {
        case redirectURIs = "redirect_uris"
        case tokenEndpointAuthMethod = "token_endpoint_auth_method"
        case grantTypes = "grant_types"
        case responseTypes = "response_types"
        case clientName = "client_name"
        case scope
        case softwareID = "software_id"
        case softwareVersion = "software_version"
        case clientID = "client_id"
    }
}

/// The client information response (RFC 7591 §3.2.1, RFC 7592 §3): the registered client's id,
/// its secret (confidential clients, in the registration's answer only), the registration access
/// token and the client configuration endpoint (RFC 7592 §3), and the metadata as registered.
public struct ClientRegistrationResponse: Codable, Sendable, Equatable {
    /// §3.2.1 `client_id`.
    public var clientID: String
    /// §3.2.1 `client_secret`: only in the answer that created it.
    public var clientSecret: String?
    /// §3.2.1 `client_id_issued_at` (seconds since 1970).
    public var clientIDIssuedAt: Int
    /// §3.2.1 `client_secret_expires_at`: `0`, the secret does not expire; only with a secret.
    public var clientSecretExpiresAt: Int?
    /// RFC 7592 §3 `registration_access_token`: only in the registration's answer; present it as
    /// a Bearer token to read, update or delete the registration.
    public var registrationAccessToken: String?
    /// RFC 7592 §3 `registration_client_uri`: the client configuration endpoint.
    public var registrationClientURI: String
    /// The redirect URIs as registered (§3.2.1: the server may have replaced or added values).
    public var redirectURIs: [String]
    /// How the client authenticates at `/token`: `none` for a public client.
    public var tokenEndpointAuthMethod: String
    /// The grants it may use.
    public var grantTypes: [String]
    /// `["code"]` with the authorization code grant.
    public var responseTypes: [String]
    /// The name the sign-in pages show.
    public var clientName: String
    /// The scopes it may ask for, space-separated.
    public var scope: String
    /// What the client said it is (§2 `software_id`).
    public var softwareID: String?
    /// Its version (§2 `software_version`).
    public var softwareVersion: String?

    /// A response with every member given.
    public init(
        clientID: String, clientSecret: String?, clientIDIssuedAt: Int, clientSecretExpiresAt: Int?,
        registrationAccessToken: String?, registrationClientURI: String, redirectURIs: [String],
        tokenEndpointAuthMethod: String, grantTypes: [String], responseTypes: [String], clientName: String, scope: String,
        softwareID: String? = nil, softwareVersion: String? = nil
    ) {
        self.clientID = clientID
        self.clientSecret = clientSecret
        self.clientIDIssuedAt = clientIDIssuedAt
        self.clientSecretExpiresAt = clientSecretExpiresAt
        self.registrationAccessToken = registrationAccessToken
        self.registrationClientURI = registrationClientURI
        self.redirectURIs = redirectURIs
        self.tokenEndpointAuthMethod = tokenEndpointAuthMethod
        self.grantTypes = grantTypes
        self.responseTypes = responseTypes
        self.clientName = clientName
        self.scope = scope
        self.softwareID = softwareID
        self.softwareVersion = softwareVersion
    }

    enum CodingKeys: String, CodingKey {
        case clientID = "client_id"
        case clientSecret = "client_secret"
        case clientIDIssuedAt = "client_id_issued_at"
        case clientSecretExpiresAt = "client_secret_expires_at"
        case registrationAccessToken = "registration_access_token"
        case registrationClientURI = "registration_client_uri"
        case redirectURIs = "redirect_uris"
        case tokenEndpointAuthMethod = "token_endpoint_auth_method"
        case grantTypes = "grant_types"
        case responseTypes = "response_types"
        case clientName = "client_name"
        case scope
        case softwareID = "software_id"
        case softwareVersion = "software_version"
    }
}

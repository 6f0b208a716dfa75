import SesameStore
import Foundation
import SesameProtocol

/// One client of the seed file; keys are RFC 7591 §2 metadata names. A client with a `secret`
/// is confidential (`client_secret_basic` unless `token_endpoint_auth_method` says otherwise).
public struct ClientSeed: Codable, Sendable, Equatable {
    public var clientID: String
    public var name: String?
    /// Plaintext secret; hashed on import, never stored in clear.
    public var secret: String?
    public var redirectURIs: [String]?
    public var postLogoutRedirectURIs: [String]?
    public var grantTypes: [String]?
    /// The allowed scopes; default ``ClientRecord/defaultAllowedScopes`` (every scope discovery
    /// advertises: `openid profile email phone address offline_access`).
    public var scopes: [String]?
    public var tokenEndpointAuthMethod: String?
    public var idTokenSigningAlg: String?
    /// `RS256` (default) or `ES256` for the client's JWT access tokens.
    public var accessTokenSigningAlg: String?
    /// Whether the client must push its authorization requests (RFC 9126 §6).
    public var requirePushedAuthorizationRequests: Bool?
    /// RFC 9449 §5.2 `dpop_bound_access_tokens`: every token request must carry a DPoP proof.
    public var dpopBoundAccessTokens: Bool?
    /// `standard` (default) or `fapi2` (docs/fapi2.md).
    public var securityProfile: String?
    public var accessTokenLifetime: Int?
    public var idTokenLifetime: Int?
    public var refreshTokenLifetime: Int?
    /// `never`, `when_enrolled` (default) or `always` (``MFAPolicy``).
    public var mfaPolicy: String?
    /// `first_party`: `true` for the operator's own apps, which may sign in natively at
    /// `/authorize-challenge` and call the account APIs (``ClientRecord/firstParty``).
    /// Default `false`.
    public var firstParty: Bool?
    /// `app_group`: the vendor whose apps share sign-ins (Native SSO, docs/native-sso.md).
    public var appGroup: String?
    /// `jwks`: the public keys of a `private_key_jwt` client, a JSON Web Key Set as JSON text.
    public var jwks: String?
    /// `introspects_any_token`: a resource server that may introspect any client's tokens.
    public var introspectsAnyToken: Bool?
    /// `device_code_lifetime` and `device_poll_interval` (RFC 8628 §3.2), in seconds.
    public var deviceCodeLifetime: Int?
    public var devicePollInterval: Int?
    /// RFC 8705 §2.1.2: the certificate of a `tls_client_auth` client, by its subject DN or one
    /// SAN (give exactly one).
    public var tlsClientAuthSubjectDN: String?
    public var tlsClientAuthSANDNS: String?
    public var tlsClientAuthSANURI: String?
    public var tlsClientAuthSANIP: String?
    public var tlsClientAuthSANEmail: String?
    /// RFC 8705 §3 `tls_client_certificate_bound_access_tokens`. Default `false`.
    public var tlsClientCertificateBoundAccessTokens: Bool?
    /// `resources`: the registered APIs the client may ask tokens for (RFC 8707).
    public var resources: [String]?
    /// `default_resource`: the API its tokens are for when a request names none.
    public var defaultResource: String?

    public init(
        clientID: String, name: String? = nil, secret: String? = nil,
        redirectURIs: [String]? = nil, grantTypes: [String]? = nil
    ) {
        self.clientID = clientID
        self.name = name
        self.secret = secret
        self.redirectURIs = redirectURIs
        self.grantTypes = grantTypes
    }

    package enum CodingKeys: String, CodingKey, CaseIterable {
        case clientID = "client_id"
        case name, secret
        case redirectURIs = "redirect_uris"
        case postLogoutRedirectURIs = "post_logout_redirect_uris"
        case grantTypes = "grant_types"
        case scopes
        case tokenEndpointAuthMethod = "token_endpoint_auth_method"
        case idTokenSigningAlg = "id_token_signing_alg"
        case accessTokenSigningAlg = "access_token_signing_alg"
        case requirePushedAuthorizationRequests = "require_pushed_authorization_requests"
        case dpopBoundAccessTokens = "dpop_bound_access_tokens"
        case securityProfile = "security_profile"
        case accessTokenLifetime = "access_token_lifetime"
        case idTokenLifetime = "id_token_lifetime"
        case refreshTokenLifetime = "refresh_token_lifetime"
        case mfaPolicy = "mfa_policy"
        case firstParty = "first_party"
        case appGroup = "app_group"
        case jwks
        case introspectsAnyToken = "introspects_any_token"
        case deviceCodeLifetime = "device_code_lifetime"
        case devicePollInterval = "device_poll_interval"
        case tlsClientAuthSubjectDN = "tls_client_auth_subject_dn"
        case tlsClientAuthSANDNS = "tls_client_auth_san_dns"
        case tlsClientAuthSANURI = "tls_client_auth_san_uri"
        case tlsClientAuthSANIP = "tls_client_auth_san_ip"
        case tlsClientAuthSANEmail = "tls_client_auth_san_email"
        case tlsClientCertificateBoundAccessTokens = "tls_client_certificate_bound_access_tokens"
        case resources
        case defaultResource = "default_resource"
    }

    /// The validated record, defaults filled in as for ``ClientSpec``.
    package func record(secretHash: String?, createdAt: Date = Date()) throws(ClientValidation.Issue) -> ClientRecord {
        let defaults = ClientSpec(clientID: clientID)
        let profile = try securityProfile.map(ClientValidation.checkSecurityProfile) ?? .standard
        if let secret, secret.utf8.count < 32 {
            throw ClientValidation.Issue(
                field: "secret", reason: "is too short; use at least 32 random characters (RFC 6749 §10.10)")
        }
        let subjects = [
            tlsClientAuthSubjectDN.map(TLSClientAuthSubject.subjectDN), tlsClientAuthSANDNS.map(TLSClientAuthSubject.dnsName),
            tlsClientAuthSANURI.map(TLSClientAuthSubject.uri), tlsClientAuthSANIP.map(TLSClientAuthSubject.ipAddress),
            tlsClientAuthSANEmail.map(TLSClientAuthSubject.email),
        ].compactMap { $0 }
        guard subjects.count <= 1 else {
            throw ClientValidation.Issue(
                field: subjects[1].metadataName, reason: "give one of tls_client_auth_subject_dn and tls_client_auth_san_*, not several (RFC 8705 section 2.1.2)")
        }
        var record = try ClientValidation.makeRecord(
            clientID: clientID, name: name ?? clientID, confidential: secret != nil,
            secretHash: secretHash, redirectURIs: redirectURIs ?? [],
            postLogoutRedirectURIs: postLogoutRedirectURIs ?? [],
            grantTypes: grantTypes ?? defaults.grantTypes.map(\.rawValue),
            scopes: scopes ?? defaults.scopes, tokenEndpointAuthMethod: tokenEndpointAuthMethod,
            idTokenSigningAlg: idTokenSigningAlg ?? (profile == .fapi2 ? "ES256" : defaults.idTokenSigningAlg),
            accessTokenSigningAlg: accessTokenSigningAlg
                ?? (profile == .fapi2 ? "ES256" : defaults.accessTokenSigningAlg),
            accessTokenLifetime: accessTokenLifetime ?? defaults.accessTokenLifetime,
            idTokenLifetime: idTokenLifetime ?? defaults.idTokenLifetime,
            refreshTokenLifetime: refreshTokenLifetime ?? defaults.refreshTokenLifetime,
            createdAt: createdAt,
            mfaPolicy: try mfaPolicy.map(ClientValidation.checkMFAPolicy) ?? defaults.mfaPolicy,
            firstParty: firstParty ?? defaults.firstParty, appGroup: appGroup, jwks: jwks,
            requirePushedRequests: requirePushedAuthorizationRequests ?? false,
            dpopBoundAccessTokens: dpopBoundAccessTokens ?? false, securityProfile: profile,
            tlsClientAuthSubject: subjects.first,
            certificateBoundAccessTokens: tlsClientCertificateBoundAccessTokens ?? false)
        try ClientValidation.applyPolicies(
            introspectsAnyToken: introspectsAnyToken ?? false, deviceCodeLifetime: deviceCodeLifetime,
            devicePollInterval: devicePollInterval, to: &record)
        try APIValidation.applyResources(resources ?? [], defaultResource: defaultResource, to: &record)
        return record
    }
}

/// One user of the seed file; profile keys are OIDC Core §5.1 claim names. Without a
/// `password` the user cannot log in with one (federated-only).
public struct UserSeed: Codable, Sendable, Equatable {
    public var username: String
    public var email: String
    public var password: String?
    public var emailVerified: Bool?
    public var name: String?
    public var givenName: String?
    public var familyName: String?

    public init(username: String, email: String, password: String? = nil) {
        self.username = username
        self.email = email
        self.password = password
    }

    package enum CodingKeys: String, CodingKey, CaseIterable {
        case username, email, password
        case emailVerified = "email_verified"
        case name
        case givenName = "given_name"
        case familyName = "family_name"
    }

    package var claims: StandardClaims {
        var claims = StandardClaims(sub: "")
        claims.name = name
        claims.givenName = givenName
        claims.familyName = familyName
        return claims
    }
}

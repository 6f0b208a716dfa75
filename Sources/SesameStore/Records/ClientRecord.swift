import Foundation
import SesameProtocol

// Records/ holds the value types an ``IdentityStore`` persists, one file per record. Secrets never
// appear in them in clear text: passwords and the client secrets an operator chose are PHC hashes
// (``PasswordHasher``); codes, refresh tokens, browser-session ids and the client secrets the
// server generated are SHA-256 digests (``SecretDigest``).

/// A registered OAuth 2.0 client (RFC 6749 §2, RFC 7591 §2 metadata names).
public struct ClientRecord: Sendable, Codable, Equatable {
    public var clientID: String
    public var name: String
    /// The client secret's hash: `$sha256$…` for a secret the server generated (256 random
    /// bits), a PHC hash for one an operator chose in a seed file; `nil` for public clients
    /// (RFC 6749 §2.1).
    public var secretHash: String?
    /// Registered redirect URIs, compared exactly (RFC 9700 §4.1.3), loopback port excepted.
    public var redirectURIs: [String]
    /// RP-Initiated Logout 1.0 §3 `post_logout_redirect_uris`.
    public var postLogoutRedirectURIs: [String]
    public var grantTypes: [GrantType]
    /// Scopes this client may request.
    public var allowedScopes: [String]
    public var tokenEndpointAuthMethod: ClientAuthenticationMethod
    /// `RS256` (default) or `ES256`.
    public var idTokenSigningAlg: String
    /// The algorithm of this client's JWT access tokens (RFC 9068 §2.1): `RS256` (default) or
    /// `ES256`, whose signature costs a fraction of an RSA one (docs/benchmarks.md), for APIs
    /// that accept it. Metadata name `access_token_signed_response_alg`.
    public var accessTokenSigningAlg: String
    public var accessTokenLifetime: Int
    public var idTokenLifetime: Int
    public var refreshTokenLifetime: Int
    public var createdAt: Date
    /// Whether sign-ins ask for a second factor (docs/first-party-and-accounts.md).
    public var mfaPolicy: MFAPolicy
    /// A first-party client (an app of the operator itself) may use `/authorize-challenge`
    /// and the account APIs under `/api/`: draft-ietf-oauth-first-party-apps, Security
    /// Considerations, "First-Party Applications" (the endpoint is for first-party clients
    /// only). Third-party relying parties sign in through the browser at `/authorize` and
    /// read `/userinfo`. Default `false`.
    public var firstParty: Bool
    /// The app group (a vendor) whose apps share sign-ins on a device (Native SSO 1.0 §4.3:
    /// "a list of client_ids that can share user authentications"); `nil`: none.
    public var appGroup: String?
    /// The JSON Web Key Set (RFC 7517 §5) of a `private_key_jwt` client (RFC 7523 §2.2): the
    /// public keys its client assertions are checked with.
    public var jwks: String?
    /// Whether this client's authorization requests must be pushed first (RFC 9126 §6
    /// `require_pushed_authorization_requests`): `/authorize` then accepts only a `request_uri`
    /// from `/par`. Default `false`.
    public var requirePushedRequests: Bool
    /// Whether every token request of this client must carry a DPoP proof, so that all its
    /// access tokens are sender-constrained (RFC 9449 §5.2 `dpop_bound_access_tokens`).
    /// Default `false`: a proof is optional, and binds the tokens when sent.
    public var dpopBoundAccessTokens: Bool
    /// The security profile the client is held to: ``ClientSecurityProfile/fapi2`` adds the
    /// authorization server rules of the FAPI 2.0 Security Profile (docs/fapi2.md). Default
    /// ``ClientSecurityProfile/standard``.
    public var securityProfile: ClientSecurityProfile
    /// Whether this client (a resource server) may introspect any client's tokens (RFC 7662
    /// §4 leaves who may see what to the server). Default `false`: only tokens issued to it or
    /// meant for it (its id in `aud`).
    public var introspectsAnyToken: Bool = false
    /// The lifetime of this client's device codes (RFC 8628 §3.2 `expires_in`), in seconds;
    /// `nil`: the server's (`sesame serve --device-code-lifetime`).
    public var deviceCodeLifetime: Int?
    /// The polling interval this client's devices are given (RFC 8628 §3.2 `interval`), in
    /// seconds; `nil`: the server's (`sesame serve --device-poll-interval`).
    public var devicePollInterval: Int?
    /// The certificate a `tls_client_auth` client presents (RFC 8705 §2.1.2); `nil` for every
    /// other method.
    public var tlsClientAuthSubject: TLSClientAuthSubject?
    /// Whether the client's access tokens are bound to its TLS client certificate (RFC 8705
    /// §3, `tls_client_certificate_bound_access_tokens`): every token request must come over a
    /// connection that presented one, and the token carries its `cnf` `x5t#S256`.
    public var certificateBoundAccessTokens = false
    /// The registered APIs (``APIRecord/identifier``) this client may ask access tokens for with
    /// `resource` (RFC 8707 §2); empty: none, its tokens are for the issuer only.
    public var resources: [String] = []
    /// The API a token is for when a request names none (one of ``resources``); `nil`: the issuer,
    /// as before APIs existed.
    public var defaultResource: String?

    /// Whether the client authenticates: with a secret, a registered key, or its TLS client
    /// certificate (RFC 8705 §2).
    public var isConfidential: Bool { secretHash != nil || jwks != nil || tlsClientAuthSubject != nil }

    /// The scopes a client may request unless registered with others (``ClientSpec``, seed
    /// files, `sesame client add`): every scope discovery advertises (`scopes_supported`,
    /// OIDC Core §5.4 `profile`, `email`, `phone`, `address`, and §11 `offline_access`).
    public static let defaultAllowedScopes = ["openid", "profile", "email", "phone", "address", "offline_access"]

    public init(
        clientID: String, name: String, secretHash: String? = nil, redirectURIs: [String] = [],
        postLogoutRedirectURIs: [String] = [],
        grantTypes: [GrantType] = [.authorizationCode, .refreshToken],
        allowedScopes: [String] = ClientRecord.defaultAllowedScopes,
        tokenEndpointAuthMethod: ClientAuthenticationMethod = .none,
        idTokenSigningAlg: String = "RS256", accessTokenSigningAlg: String = "RS256", accessTokenLifetime: Int = 900,
        idTokenLifetime: Int = 900, refreshTokenLifetime: Int = 30 * 24 * 3600,
        createdAt: Date = Date(), mfaPolicy: MFAPolicy = .whenEnrolled, firstParty: Bool = false,
        appGroup: String? = nil, jwks: String? = nil, requirePushedRequests: Bool = false,
        dpopBoundAccessTokens: Bool = false, securityProfile: ClientSecurityProfile = .standard
    ) {
        self.clientID = clientID
        self.name = name
        self.secretHash = secretHash
        self.redirectURIs = redirectURIs
        self.postLogoutRedirectURIs = postLogoutRedirectURIs
        self.grantTypes = grantTypes
        self.allowedScopes = allowedScopes
        self.tokenEndpointAuthMethod = tokenEndpointAuthMethod
        self.idTokenSigningAlg = idTokenSigningAlg
        self.accessTokenSigningAlg = accessTokenSigningAlg
        self.accessTokenLifetime = accessTokenLifetime
        self.idTokenLifetime = idTokenLifetime
        self.refreshTokenLifetime = refreshTokenLifetime
        self.createdAt = createdAt
        self.mfaPolicy = mfaPolicy
        self.firstParty = firstParty
        self.appGroup = appGroup
        self.jwks = jwks
        self.requirePushedRequests = requirePushedRequests
        self.dpopBoundAccessTokens = dpopBoundAccessTokens
        self.securityProfile = securityProfile
    }
}

/// The security profile a client is registered under.
public enum ClientSecurityProfile: String, Sendable, Codable, CaseIterable {
    /// Sesame's defaults: RFC 9700 best current practice.
    case standard
    /// FAPI 2.0 Security Profile (final), what open-banking regulators require: pushed
    /// authorization requests, PKCE S256, `private_key_jwt` only, DPoP-bound tokens, ES256
    /// signatures, codes of at most 60 s, client assertions for the issuer only, refresh tokens
    /// not rotated (docs/fapi2.md).
    case fapi2
}

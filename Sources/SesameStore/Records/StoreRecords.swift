import Foundation
import SesameProtocol

// Value types persisted by an ``IdentityStore``. Secrets never appear here in clear text:
// client secrets and passwords are PHC hashes (``PasswordHasher``), codes, refresh tokens and
// browser-session ids are SHA-256 digests (``SecretDigest``).

/// A registered OAuth 2.0 client (RFC 6749 §2, RFC 7591 §2 metadata names).
public struct ClientRecord: Sendable, Codable, Equatable {
    public var clientID: String
    public var name: String
    /// PHC hash of the client secret; `nil` for public clients (RFC 6749 §2.1).
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

    /// Whether the client authenticates: with a secret or with a registered key.
    public var isConfidential: Bool { secretHash != nil || jwks != nil }

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
        idTokenSigningAlg: String = "RS256", accessTokenLifetime: Int = 900,
        idTokenLifetime: Int = 900, refreshTokenLifetime: Int = 30 * 24 * 3600,
        createdAt: Date = Date(), mfaPolicy: MFAPolicy = .whenEnrolled, firstParty: Bool = false,
        appGroup: String? = nil, jwks: String? = nil
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
        self.accessTokenLifetime = accessTokenLifetime
        self.idTokenLifetime = idTokenLifetime
        self.refreshTokenLifetime = refreshTokenLifetime
        self.createdAt = createdAt
        self.mfaPolicy = mfaPolicy
        self.firstParty = firstParty
        self.appGroup = appGroup
        self.jwks = jwks
    }
}

/// An end user. `id` is the OIDC `sub`: stable, never reassigned.
public struct UserRecord: Sendable, Codable, Equatable {
    public var id: String
    /// Login name, unique, compared case-insensitively (stored lowercased).
    public var username: String
    /// Unique, stored lowercased.
    public var email: String
    public var emailVerified: Bool
    /// PHC string, e.g. `$scrypt$ln=15,r=8,p=1$<salt>$<hash>`; `nil` for federated-only users.
    public var passwordHash: String?
    /// Profile: the OIDC standard claims (`sub`, `email`, `email_verified` mirror the fields).
    public var claims: StandardClaims
    public var createdAt: Date
    public var updatedAt: Date

    public init(
        id: String = UUID().uuidString.lowercased(), username: String, email: String,
        emailVerified: Bool = false, passwordHash: String? = nil, claims: StandardClaims? = nil,
        createdAt: Date = Date(), updatedAt: Date = Date()
    ) {
        self.id = id
        self.username = username.lowercased()
        self.email = email.lowercased()
        self.emailVerified = emailVerified
        self.passwordHash = passwordHash
        var claims = claims ?? StandardClaims(sub: id)
        claims.sub = id
        claims.email = email.lowercased()
        claims.emailVerified = emailVerified
        if claims.preferredUsername == nil { claims.preferredUsername = username.lowercased() }
        self.claims = claims
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

/// A signing key. Lifecycle (key rotation with overlap):
/// published at `createdAt`; signs from `activatesAt`; stops signing at `retiredAt`;
/// leaves the JWKS at `expiresAt` (after every token it signed has expired).
public struct SigningKeyRecord: Sendable, Codable, Equatable {
    public var kid: String
    /// `RS256` or `ES256`.
    public var algorithm: String
    /// PKCS#8 PEM, sealed with the data directory's master key (AES-GCM), base64.
    public var sealedPrivateKey: String
    public var createdAt: Date
    public var activatesAt: Date
    public var retiredAt: Date?
    public var expiresAt: Date?

    public init(
        kid: String, algorithm: String, sealedPrivateKey: String, createdAt: Date,
        activatesAt: Date, retiredAt: Date? = nil, expiresAt: Date? = nil
    ) {
        self.kid = kid
        self.algorithm = algorithm
        self.sealedPrivateKey = sealedPrivateKey
        self.createdAt = createdAt
        self.activatesAt = activatesAt
        self.retiredAt = retiredAt
        self.expiresAt = expiresAt
    }
}

/// What an authentication established (OIDC Core §2 `auth_time`, `acr`, `amr`).
public struct AuthenticationContext: Sendable, Codable, Equatable {
    public var userID: String
    public var authTime: Date
    public var acr: String?
    public var amr: [String]

    public init(userID: String, authTime: Date, acr: String? = nil, amr: [String] = ["pwd"]) {
        self.userID = userID
        self.authTime = authTime
        self.acr = acr
        self.amr = amr
    }
}

/// An issued authorization code (RFC 6749 §4.1.2), single use, short-lived.
public struct AuthorizationCodeRecord: Sendable, Codable, Equatable {
    public var codeDigest: String
    public var clientID: String
    public var redirectURI: String
    public var scope: String
    public var nonce: String?
    /// RFC 7636 S256 challenge; `nil` when a confidential client sent none (RFC 9700 §2.1.1).
    /// Then a token request carrying `code_verifier` is a PKCE downgrade and is refused
    /// (RFC 9700 §4.8.2).
    public var codeChallenge: String?
    public var authentication: AuthenticationContext
    /// Browser session that produced the code (for `sid` and logout).
    public var sessionID: String?
    public var expiresAt: Date
    /// Set when redeemed; a second redemption by the same client revokes `familyID`
    /// (RFC 6749 §4.1.2, RFC 9700 §4.2.4), even after the code's lifetime.
    public var consumedAt: Date?
    /// Refresh-token family issued on redemption.
    public var familyID: String?
    /// The granted `claims` request parameter (OIDC Core §5.5), if one was sent.
    public var claims: ClaimsRequest?

    public init(
        codeDigest: String, clientID: String, redirectURI: String, scope: String,
        nonce: String?, codeChallenge: String?, authentication: AuthenticationContext,
        sessionID: String?, expiresAt: Date, consumedAt: Date? = nil, familyID: String? = nil,
        claims: ClaimsRequest? = nil
    ) {
        self.codeDigest = codeDigest
        self.clientID = clientID
        self.redirectURI = redirectURI
        self.scope = scope
        self.nonce = nonce
        self.codeChallenge = codeChallenge
        self.authentication = authentication
        self.sessionID = sessionID
        self.expiresAt = expiresAt
        self.consumedAt = consumedAt
        self.familyID = familyID
        self.claims = claims
    }
}

/// A refresh token. Every use rotates it (RFC 9700 §4.14.2); all tokens descended from one
/// grant share `familyID`, so reuse of a rotated token revokes the whole family.
public struct RefreshTokenRecord: Sendable, Codable, Equatable {
    public var tokenDigest: String
    public var familyID: String
    public var clientID: String
    public var scope: String
    public var authentication: AuthenticationContext
    public var sessionID: String?
    public var issuedAt: Date
    public var expiresAt: Date
    /// Set when this token was exchanged for its successor.
    public var rotatedAt: Date?
    public var revokedAt: Date?
    /// The granted `claims` request parameter (OIDC Core §5.5) of the grant, kept by rotation.
    public var claims: ClaimsRequest?

    public init(
        tokenDigest: String, familyID: String, clientID: String, scope: String,
        authentication: AuthenticationContext, sessionID: String?, issuedAt: Date,
        expiresAt: Date, rotatedAt: Date? = nil, revokedAt: Date? = nil, claims: ClaimsRequest? = nil
    ) {
        self.tokenDigest = tokenDigest
        self.familyID = familyID
        self.clientID = clientID
        self.scope = scope
        self.authentication = authentication
        self.sessionID = sessionID
        self.issuedAt = issuedAt
        self.expiresAt = expiresAt
        self.rotatedAt = rotatedAt
        self.revokedAt = revokedAt
        self.claims = claims
    }
}

/// The refresh token that replaces a rotated one (RFC 9700 §4.14.2): its digest and validity.
/// Family, client, scope, authentication and session are inherited from the token it replaces.
public struct RefreshTokenSuccessor: Sendable, Equatable {
    public var tokenDigest: String
    public var issuedAt: Date
    public var expiresAt: Date

    public init(tokenDigest: String, issuedAt: Date, expiresAt: Date) {
        self.tokenDigest = tokenDigest
        self.issuedAt = issuedAt
        self.expiresAt = expiresAt
    }
}

/// A browser SSO session behind the session cookie (the cookie holds the random id; the store
/// holds its digest).
public struct BrowserSessionRecord: Sendable, Codable, Equatable {
    public var idDigest: String
    /// Public, non-secret session id used as the OIDC `sid` claim.
    public var sid: String
    public var authentication: AuthenticationContext
    public var createdAt: Date
    public var expiresAt: Date

    public init(
        idDigest: String, sid: String, authentication: AuthenticationContext, createdAt: Date,
        expiresAt: Date
    ) {
        self.idDigest = idDigest
        self.sid = sid
        self.authentication = authentication
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }
}

/// Outcome of redeeming a code or rotating a refresh token; decided atomically by the store.
public enum RedemptionResult<Record: Sendable>: Sendable {
    /// First use: the record, now marked consumed (a refresh token: its successor).
    case redeemed(Record)
    /// Already used before: the caller must revoke the family and answer `invalid_grant`.
    case replayed(Record)
    case notFound
}

/// Errors from the store. Messages say what to do.
public enum StoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A unique field (client id, username, email) already exists.
    case conflict(field: String)
    case notFound(what: String)
    /// The database could not be opened, migrated or written.
    case unavailable(reason: String)

    public var description: String {
        switch self {
        case .conflict(let field): "\(field) is already taken; choose another"
        case .notFound(let what): "\(what) does not exist"
        case .unavailable(let reason): "the data store is unavailable: \(reason)"
        }
    }
}

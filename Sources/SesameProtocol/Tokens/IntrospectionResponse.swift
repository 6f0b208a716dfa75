import Foundation

/// RFC 7662 §2.2 token introspection response. An inactive token is `{"active": false}` only.
public struct IntrospectionResponse: Codable, Sendable, Equatable {
    /// RFC 7662 §2.2 `active`: `true` only while the token is valid (known, unexpired, unrevoked);
    /// when `false`, nothing else is sent.
    public var active: Bool
    /// RFC 7662 §2.2 `scope`: the token's space-separated scopes.
    public var scope: String?
    /// RFC 7662 §2.2 `client_id`: the client the token was issued to.
    public var clientID: String?
    /// RFC 7662 §2.2 `username`: the user's human-readable name; Sesame leaves it out.
    public var username: String?
    /// RFC 7662 §2.2 `token_type`: at Sesame `Bearer` for an access token, `DPoP` for one bound
    /// to a DPoP key (RFC 9449 §6.2), `refresh_token` for a refresh token.
    public var tokenType: String?
    /// RFC 7662 §2.2 `exp`: when the token expires, in seconds since 1970.
    public var exp: Int?
    /// RFC 7662 §2.2 `iat`: when the token was issued, in seconds since 1970.
    public var iat: Int?
    /// RFC 7662 §2.2 `nbf`: not valid before, in seconds since 1970; Sesame leaves it out.
    public var nbf: Int?
    /// RFC 7662 §2.2 `sub`: the user the token is for; the client itself for a client-credentials
    /// token.
    public var sub: String?
    /// RFC 7662 §2.2 `aud`: the token's audiences (access tokens).
    public var aud: [String]?
    /// RFC 7662 §2.2 `iss`: the issuer of the token.
    public var iss: String?
    /// RFC 7662 §2.2 `jti`: the token's identifier (access tokens).
    public var jti: String?
    /// OIDC Core §2 `acr` of the sign-in behind the token, e.g. `urn:sesame:acr:mfa`; an extension
    /// member, as RFC 7662 §2.2 allows.
    public var acr: String?
    /// RFC 8176 `amr` of the sign-in behind the token, e.g. `["pwd", "otp", "mfa"]`.
    public var amr: [String]?
    /// RFC 9449 §6.2 / RFC 8705 §3.2 `cnf`: the confirmation of a sender-constrained token:
    /// `jkt` for a DPoP key, `x5t#S256` for a TLS client certificate; a resource server checks
    /// the request's proof or certificate against it.
    public var cnf: Confirmation?

    /// The confirmation member of a sender-constrained token (RFC 7800 §3.1, RFC 9449 §6,
    /// RFC 8705 §3.1).
    public struct Confirmation: Codable, Sendable, Equatable {
        /// RFC 9449 §6.1 `jkt`: the base64url SHA-256 JWK thumbprint of the DPoP key.
        public var jkt: String?
        /// RFC 8705 §3.1 `x5t#S256`: the base64url SHA-256 of the client certificate's DER.
        public var certificateThumbprint: String?

        /// A confirmation naming the DPoP key thumbprint `jkt`.
        public init(jkt: String) { self.jkt = jkt }

        /// A confirmation naming the client certificate's thumbprint (RFC 8705 §3.1).
        public init(certificateThumbprint: String) { self.certificateThumbprint = certificateThumbprint }

        enum CodingKeys: String, CodingKey {
            case jkt
            case certificateThumbprint = "x5t#S256"
        }
    }

    /// An answer for an active token with the members given; for an inactive one use `inactive`.
    public init(
        active: Bool, scope: String? = nil, clientID: String? = nil, username: String? = nil,
        tokenType: String? = nil, exp: Int? = nil, iat: Int? = nil, nbf: Int? = nil,
        sub: String? = nil, aud: [String]? = nil, iss: String? = nil, jti: String? = nil,
        acr: String? = nil, amr: [String]? = nil, cnf: Confirmation? = nil
    ) {
        self.active = active
        self.scope = scope
        self.clientID = clientID
        self.username = username
        self.tokenType = tokenType
        self.exp = exp
        self.iat = iat
        self.nbf = nbf
        self.sub = sub
        self.aud = aud
        self.iss = iss
        self.jti = jti
        self.acr = acr
        self.amr = amr
        self.cnf = cnf
    }

    /// The RFC 7662 §2.2 answer for an unknown, expired or revoked token.
    public static let inactive = IntrospectionResponse(active: false)

    enum CodingKeys: String, CodingKey {
        case active, scope, username, exp, iat, nbf, sub, aud, iss, jti, acr, amr, cnf
        case clientID = "client_id"
        case tokenType = "token_type"
    }
}

import Foundation

/// RFC 7662 §2.2 token introspection response. An inactive token is `{"active": false}` only.
public struct IntrospectionResponse: Codable, Sendable, Equatable {
    public var active: Bool
    public var scope: String?
    public var clientID: String?
    public var username: String?
    public var tokenType: String?
    public var exp: Int?
    public var iat: Int?
    public var nbf: Int?
    public var sub: String?
    public var aud: [String]?
    public var iss: String?
    public var jti: String?
    public var acr: String?
    public var amr: [String]?

    public init(
        active: Bool, scope: String? = nil, clientID: String? = nil, username: String? = nil,
        tokenType: String? = nil, exp: Int? = nil, iat: Int? = nil, nbf: Int? = nil,
        sub: String? = nil, aud: [String]? = nil, iss: String? = nil, jti: String? = nil,
        acr: String? = nil, amr: [String]? = nil
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
    }

    /// The RFC 7662 §2.2 answer for an unknown, expired or revoked token.
    public static let inactive = IntrospectionResponse(active: false)

    enum CodingKeys: String, CodingKey {
        case active, scope, username, exp, iat, nbf, sub, aud, iss, jti, acr, amr
        case clientID = "client_id"
        case tokenType = "token_type"
    }
}

import Foundation

/// The claims of an OpenID Connect ID token (OIDC Core §2) plus the standard profile claims
/// (§5.1) a provider may add. Times are NumericDate (seconds since the epoch) on the wire.
///
/// `aud` decodes from a single string or an array (§2). A missing `sub` decodes as `""` and is
/// rejected by validation with ``IDTokenRule/subject``.
public struct IDTokenClaims: Codable, Sendable, Equatable {
    public var iss: String
    public var sub: String
    public var aud: [String]
    public var exp: Date?
    public var iat: Date?
    public var authTime: Date?
    public var nonce: String?
    public var acr: String?
    public var amr: [String]?
    public var azp: String?
    public var sid: String?
    public var atHash: String?
    public var name: String?
    public var givenName: String?
    public var familyName: String?
    public var nickname: String?
    public var preferredUsername: String?
    public var picture: String?
    public var email: String?
    public var emailVerified: Bool?
    public var locale: String?
    public var updatedAt: Date?

    public init(
        iss: String, sub: String, aud: [String], exp: Date? = nil, iat: Date? = nil,
        authTime: Date? = nil, nonce: String? = nil, acr: String? = nil, amr: [String]? = nil,
        azp: String? = nil, sid: String? = nil, atHash: String? = nil
    ) {
        self.iss = iss
        self.sub = sub
        self.aud = aud
        self.exp = exp
        self.iat = iat
        self.authTime = authTime
        self.nonce = nonce
        self.acr = acr
        self.amr = amr
        self.azp = azp
        self.sid = sid
        self.atHash = atHash
    }

    enum CodingKeys: String, CodingKey {
        case iss, sub, aud, exp, iat, nonce, acr, amr, azp, sid, name, nickname, picture, email,
            locale
        case authTime = "auth_time"
        case atHash = "at_hash"
        case givenName = "given_name"
        case familyName = "family_name"
        case preferredUsername = "preferred_username"
        case emailVerified = "email_verified"
        case updatedAt = "updated_at"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        iss = ""
        sub = ""
        aud = []
        // Only the keys present are decoded: validation runs on every token, so the cost stays
        // proportional to the token, not to the number of claims Sesame knows.
        for key in c.allKeys {
            switch key {
            case .iss: iss = try c.decode(String.self, forKey: key)
            case .sub: sub = try c.decode(String.self, forKey: key)
            case .aud:
                if let single = try? c.decode(String.self, forKey: key) {
                    aud = [single]
                } else {
                    aud = try c.decode([String].self, forKey: key)
                }
            case .exp: exp = try Self.numericDate(c, key)
            case .iat: iat = try Self.numericDate(c, key)
            case .authTime: authTime = try Self.numericDate(c, key)
            case .updatedAt: updatedAt = try? Self.numericDate(c, key)
            case .nonce: nonce = try c.decodeIfPresent(String.self, forKey: key)
            case .acr: acr = try c.decodeIfPresent(String.self, forKey: key)
            case .amr: amr = try c.decodeIfPresent([String].self, forKey: key)
            case .azp: azp = try c.decodeIfPresent(String.self, forKey: key)
            case .sid: sid = try c.decodeIfPresent(String.self, forKey: key)
            case .atHash: atHash = try c.decodeIfPresent(String.self, forKey: key)
            // Profile claims are informational: a provider's odd type does not fail sign-in.
            case .name: name = try? c.decodeIfPresent(String.self, forKey: key)
            case .givenName: givenName = try? c.decodeIfPresent(String.self, forKey: key)
            case .familyName: familyName = try? c.decodeIfPresent(String.self, forKey: key)
            case .nickname: nickname = try? c.decodeIfPresent(String.self, forKey: key)
            case .preferredUsername: preferredUsername = try? c.decodeIfPresent(String.self, forKey: key)
            case .picture: picture = try? c.decodeIfPresent(String.self, forKey: key)
            case .email: email = try? c.decodeIfPresent(String.self, forKey: key)
            case .emailVerified: emailVerified = try? c.decodeIfPresent(Bool.self, forKey: key)
            case .locale: locale = try? c.decodeIfPresent(String.self, forKey: key)
            }
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(iss, forKey: .iss)
        try c.encode(sub, forKey: .sub)
        try c.encode(aud, forKey: .aud)
        try c.encodeIfPresent(exp.map { Int64($0.timeIntervalSince1970) }, forKey: .exp)
        try c.encodeIfPresent(iat.map { Int64($0.timeIntervalSince1970) }, forKey: .iat)
        try c.encodeIfPresent(authTime.map { Int64($0.timeIntervalSince1970) }, forKey: .authTime)
        try c.encodeIfPresent(updatedAt.map { Int64($0.timeIntervalSince1970) }, forKey: .updatedAt)
        try c.encodeIfPresent(nonce, forKey: .nonce)
        try c.encodeIfPresent(acr, forKey: .acr)
        try c.encodeIfPresent(amr, forKey: .amr)
        try c.encodeIfPresent(azp, forKey: .azp)
        try c.encodeIfPresent(sid, forKey: .sid)
        try c.encodeIfPresent(atHash, forKey: .atHash)
        try c.encodeIfPresent(name, forKey: .name)
        try c.encodeIfPresent(givenName, forKey: .givenName)
        try c.encodeIfPresent(familyName, forKey: .familyName)
        try c.encodeIfPresent(nickname, forKey: .nickname)
        try c.encodeIfPresent(preferredUsername, forKey: .preferredUsername)
        try c.encodeIfPresent(picture, forKey: .picture)
        try c.encodeIfPresent(email, forKey: .email)
        try c.encodeIfPresent(emailVerified, forKey: .emailVerified)
        try c.encodeIfPresent(locale, forKey: .locale)
    }

    private static func numericDate(
        _ c: KeyedDecodingContainer<CodingKeys>, _ key: CodingKeys
    ) throws -> Date? {
        try c.decodeIfPresent(Double.self, forKey: key).map(Date.init(timeIntervalSince1970:))
    }
}

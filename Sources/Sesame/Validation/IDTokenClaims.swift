import Foundation
import SesameJOSE
import SesameProtocol

/// The claims of an OpenID Connect ID token (OIDC Core §2) plus the standard profile claims
/// (§5.1) a provider may add. Times are NumericDate (seconds since the epoch) on the wire,
/// read through `NumericDate`: `exp`, `iat` or `auth_time` out of its range (before 1970,
/// beyond year 9999, not a number) makes the token invalid with a `NumericDateError` naming
/// the claim; an odd `updated_at`, a profile claim, is dropped. Encoding writes whole seconds of
/// each date clamped into that range, so no date set by the app can trap.
///
/// `aud` decodes from a single string or an array (§2). A missing `sub` decodes as `""` and is
/// rejected by validation with ``IDTokenRule/subject``.
public struct IDTokenClaims: Codable, Sendable, Equatable {
    /// `iss`: the issuer identifier of the provider that issued the token (§2).
    public var iss: String
    /// `sub`: the user's identifier, unique and never reassigned within ``iss`` (§2).
    public var sub: String
    /// `aud`: the audiences, which include this app's client id (§2).
    public var aud: [String]
    /// `exp`: when the ID token expires (§2); after validation always set.
    public var exp: Date?
    /// `iat`: when the ID token was issued (§2); after validation always set.
    public var iat: Date?
    /// `auth_time`: when the user last actively authenticated (§2); required when `max_age` was sent.
    public var authTime: Date?
    /// `nonce`: the value from the authorization request, binding the token to it (§2, §3.1.3.7 step 11).
    public var nonce: String?
    /// `acr`: the authentication context class the provider says it satisfied, e.g. a multi-factor one (§2).
    public var acr: String?
    /// `amr`: how the user authenticated, e.g. `pwd`, `otp`, `hwk` (§2; values from RFC 8176).
    public var amr: [String]?
    /// `azp`: the party the token was issued to; when present it must be this app's client id (§2).
    public var azp: String?
    /// `sid`: the provider's session id (OpenID Connect Front-Channel Logout §3); with single
    /// sign-on, the shared device session's (Native SSO §3.4.1).
    public var sid: String?
    /// `at_hash`: half of the access token's hash, binding the two (§3.1.3.6, checked per §3.1.3.8).
    public var atHash: String?
    /// `name`: the user's full name for display (§5.1); needs the `profile` scope.
    public var name: String?
    /// `given_name`: first name(s) (§5.1).
    public var givenName: String?
    /// `family_name`: surname(s) (§5.1).
    public var familyName: String?
    /// `nickname`: a casual name (§5.1).
    public var nickname: String?
    /// `preferred_username`: the name the user goes by at the provider (§5.1); not unique or stable,
    /// so never a key (use ``sub``).
    public var preferredUsername: String?
    /// `picture`: the URL of a profile image (§5.1).
    public var picture: String?
    /// `email`: the user's preferred address (§5.1); needs the `email` scope, and may be unverified.
    public var email: String?
    /// `email_verified`: whether the provider verified ``email`` (§5.1).
    public var emailVerified: Bool?
    /// `locale`: the user's locale as a BCP 47 tag, e.g. `de-CH` (§5.1).
    public var locale: String?
    /// `updated_at`: when the profile claims last changed (§5.1); dropped when malformed.
    public var updatedAt: Date?

    /// Claims built in code (tests, previews); the profile claims start as `nil` and can be set after.
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

    /// Decodes a JWT claims set by the rules above: a malformed `exp`, `iat` or `auth_time` throws, an
    /// oddly typed profile claim is dropped, unknown claims are ignored.
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

    /// Encodes the claims under their JSON names, dates as whole seconds since the epoch (clamped);
    /// `nil` claims are left out.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(iss, forKey: .iss)
        try c.encode(sub, forKey: .sub)
        try c.encode(aud, forKey: .aud)
        try c.encodeIfPresent(exp.map { NumericDate(clamping: $0).seconds }, forKey: .exp)
        try c.encodeIfPresent(iat.map { NumericDate(clamping: $0).seconds }, forKey: .iat)
        try c.encodeIfPresent(authTime.map { NumericDate(clamping: $0).seconds }, forKey: .authTime)
        try c.encodeIfPresent(updatedAt.map { NumericDate(clamping: $0).seconds }, forKey: .updatedAt)
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
        try c.numericDateIfPresent(forKey: key)?.get().date
    }
}

extension IDTokenClaims {
    /// The claims ``init(jwtPayload:)`` reads; the raw value is a bit in the duplicate check.
    private enum Member: Int {
        case iss, sub, aud, exp, iat, authTime, updatedAt, nonce, acr, azp, sid, atHash, amr
        case name, givenName, familyName, nickname, preferredUsername, picture, email, locale
        case emailVerified

        static let byName: [String: Member] = [
            "iss": .iss, "sub": .sub, "aud": .aud, "exp": .exp, "iat": .iat,
            "auth_time": .authTime, "updated_at": .updatedAt, "nonce": .nonce, "acr": .acr,
            "azp": .azp, "sid": .sid, "at_hash": .atHash, "amr": .amr, "name": .name,
            "given_name": .givenName, "family_name": .familyName, "nickname": .nickname,
            "preferred_username": .preferredUsername, "picture": .picture, "email": .email,
            "locale": .locale, "email_verified": .emailVerified,
        ]
    }

    /// Reads a JWT claims set with ``JWTJSONReader`` (the validation hot path): the same
    /// acceptance rules as the `Decodable` initializer, and a repeated claim it reads is rejected
    /// (RFC 7519 §4).
    init(jwtPayload bytes: [UInt8]) throws {
        self.init(iss: "", sub: "", aud: [])
        var seen = 0
        try JWTJSONReader.forEachMember(in: bytes) { key, value in
            guard let member = Member.byName[key] else { return }
            let bit = 1 << member.rawValue
            guard seen & bit == 0 else { throw JWTJSONReader.Malformed(reason: "duplicate claim \(key)") }
            seen |= bit
            switch member {
            case .iss: iss = try value.string(claim: key)
            case .sub: sub = try value.string(claim: key)
            case .aud:
                aud = try value.audience()
            case .exp: exp = try value.numericDate(claim: key)
            case .iat: iat = try value.numericDate(claim: key)
            case .authTime: authTime = try value.numericDate(claim: key)
            case .updatedAt: updatedAt = try? value.numericDate(claim: key)
            case .nonce: nonce = try value.optionalString(claim: key)
            case .acr: acr = try value.optionalString(claim: key)
            case .azp: azp = try value.optionalString(claim: key)
            case .sid: sid = try value.optionalString(claim: key)
            case .atHash: atHash = try value.optionalString(claim: key)
            case .amr:
                amr = try value.optionalStringArray(claim: key)
            // Profile claims are informational: a provider's odd type does not fail sign-in.
            case .name: name = value.lenientString
            case .givenName: givenName = value.lenientString
            case .familyName: familyName = value.lenientString
            case .nickname: nickname = value.lenientString
            case .preferredUsername: preferredUsername = value.lenientString
            case .picture: picture = value.lenientString
            case .email: email = value.lenientString
            case .locale: locale = value.lenientString
            case .emailVerified:
                if case .bool(let flag) = value { emailVerified = flag }
            }
        }
    }
}

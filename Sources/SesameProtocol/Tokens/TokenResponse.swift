import Foundation

/// A successful token endpoint response, RFC 6749 §5.1 and OIDC Core §3.1.3.3, with the
/// RFC 8693 §2.2.1 `issued_token_type` and the Native SSO `device_secret`.
public struct TokenResponse: Codable, Sendable, Equatable {
    /// RFC 6749 §5.1 `access_token` (at Sesame an RFC 9068 JWT): send it as `Authorization: Bearer`.
    public var accessToken: String
    /// `Bearer` (compared case-insensitively, RFC 6749 §5.1).
    public var tokenType: String
    /// Seconds until the access token expires, `0` … ``maximumExpiresIn`` (see
    /// ``lifetime(_:)`` for how a received value is read).
    public var expiresIn: Int?

    /// The longest `expires_in` a client believes: one year. A longer lifetime is read as this.
    public static let maximumExpiresIn = 31_536_000
    /// RFC 6749 §5.1 `refresh_token`: present when the client may refresh. Each use returns a new
    /// one; store it, as reusing a spent one revokes the whole family.
    public var refreshToken: String?
    /// OIDC Core §3.1.3.3 `id_token`: present when the `openid` scope was granted.
    public var idToken: String?
    /// RFC 6749 §5.1 `scope`: the scopes granted, space-separated; may be fewer than requested.
    public var scope: String?
    /// RFC 8693 §2.2.1 `issued_token_type`: after a token exchange, the type of `access_token`
    /// (`TokenExchange.TokenType.accessToken`).
    public var issuedTokenType: String?
    /// Native SSO 1.0 §3.4 `device_secret`: with the `device_sso` scope, the secret the vendor's
    /// other apps present to sign in without the browser.
    public var deviceSecret: String?

    /// A token response; `tokenType` defaults to `Bearer`.
    public init(
        accessToken: String, tokenType: String = "Bearer", expiresIn: Int? = nil,
        refreshToken: String? = nil, idToken: String? = nil, scope: String? = nil,
        issuedTokenType: String? = nil, deviceSecret: String? = nil
    ) {
        self.accessToken = accessToken
        self.tokenType = tokenType
        self.expiresIn = expiresIn
        self.refreshToken = refreshToken
        self.idToken = idToken
        self.scope = scope
        self.issuedTokenType = issuedTokenType
        self.deviceSecret = deviceSecret
    }

    enum CodingKeys: String, CodingKey {
        case accessToken = "access_token"
        case tokenType = "token_type"
        case expiresIn = "expires_in"
        case refreshToken = "refresh_token"
        case idToken = "id_token"
        case scope
        case issuedTokenType = "issued_token_type"
        case deviceSecret = "device_secret"
    }

    /// Decodes the response; `expires_in` is read leniently (see `expiresIn`) and never fails it.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        accessToken = try c.decode(String.self, forKey: .accessToken)
        tokenType = try c.decode(String.self, forKey: .tokenType)
        expiresIn = Self.lifetime(c)
        refreshToken = try c.decodeIfPresent(String.self, forKey: .refreshToken)
        idToken = try c.decodeIfPresent(String.self, forKey: .idToken)
        scope = try c.decodeIfPresent(String.self, forKey: .scope)
        issuedTokenType = try c.decodeIfPresent(String.self, forKey: .issuedTokenType)
        deviceSecret = try c.decodeIfPresent(String.self, forKey: .deviceSecret)
    }

    /// `expires_in` as received (RFC 6749 §5.1: "the lifetime in seconds of the access token").
    /// It is advice, for refreshing ahead of time; the server stays the judge of a token, so a
    /// client reads it leniently and never lets it become a wrong integer:
    /// - a JSON number, or a string holding one (some providers send `"3600"`);
    /// - below zero (and `-0`) is `0`: already expired, refresh before use;
    /// - a fraction is rounded down;
    /// - above ``maximumExpiresIn`` (`1e30`, `9223372036854775807`) is ``maximumExpiresIn``;
    /// - anything else (`"NaN"`, `"inf"`, `true`, an object) is `nil`, as if the member were
    ///   absent (§5.1 makes it optional).
    static func lifetime(_ c: KeyedDecodingContainer<CodingKeys>) -> Int? {
        let seconds: Double
        if let number = try? c.decodeIfPresent(Double.self, forKey: .expiresIn) {
            seconds = number
        } else if let text = try? c.decodeIfPresent(String.self, forKey: .expiresIn),
            let number = Double(text.trimmingCharacters(in: .whitespaces))
        {
            seconds = number
        } else {
            return nil
        }
        guard seconds.isFinite else { return nil }
        return Int(min(max(seconds, 0), Double(maximumExpiresIn)).rounded(.down))
    }
}

extension TokenResponse {
    /// The response's JSON object as its `Encodable` conformance writes it (the members that are
    /// set, in ``CodingKeys`` order), without `JSONEncoder`: the token endpoint answers every
    /// refresh with one (issue #50).
    package func directJSON() -> [UInt8] {
        var json = JSONObjectWriter(capacity: 256 + accessToken.utf8.count + (idToken?.utf8.count ?? 0))
        json.member("access_token", accessToken)
        json.member("token_type", tokenType)
        json.member("expires_in", ifPresent: expiresIn)
        json.member("refresh_token", ifPresent: refreshToken)
        json.member("id_token", ifPresent: idToken)
        json.member("scope", ifPresent: scope)
        json.member("issued_token_type", ifPresent: issuedTokenType)
        json.member("device_secret", ifPresent: deviceSecret)
        return json.finish()
    }
}

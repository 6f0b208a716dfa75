import Foundation

/// A successful token endpoint response, RFC 6749 §5.1 and OIDC Core §3.1.3.3, with the
/// RFC 8693 §2.2.1 `issued_token_type` and the Native SSO `device_secret`.
public struct TokenResponse: Codable, Sendable, Equatable {
    public var accessToken: String
    /// `Bearer` (compared case-insensitively, RFC 6749 §5.1).
    public var tokenType: String
    /// Seconds until the access token expires, `0` … ``maximumExpiresIn`` (see
    /// ``lifetime(_:)`` for how a received value is read).
    public var expiresIn: Int?

    /// The longest `expires_in` a client believes: one year. A longer lifetime is read as this.
    public static let maximumExpiresIn = 31_536_000
    public var refreshToken: String?
    public var idToken: String?
    public var scope: String?
    public var issuedTokenType: String?
    public var deviceSecret: String?

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

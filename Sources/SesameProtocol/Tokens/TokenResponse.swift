import Foundation

/// A successful token endpoint response, RFC 6749 §5.1 and OIDC Core §3.1.3.3, with the
/// RFC 8693 §2.2.1 `issued_token_type` and the Native SSO `device_secret`.
public struct TokenResponse: Codable, Sendable, Equatable {
    public var accessToken: String
    /// `Bearer` (compared case-insensitively, RFC 6749 §5.1).
    public var tokenType: String
    /// Seconds until the access token expires.
    public var expiresIn: Int?
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
        // Some providers send expires_in as a string; accept both.
        if let seconds = try? c.decodeIfPresent(Int.self, forKey: .expiresIn) {
            expiresIn = seconds
        } else if let text = try? c.decodeIfPresent(String.self, forKey: .expiresIn) {
            expiresIn = Int(text)
        } else {
            expiresIn = nil
        }
        refreshToken = try c.decodeIfPresent(String.self, forKey: .refreshToken)
        idToken = try c.decodeIfPresent(String.self, forKey: .idToken)
        scope = try c.decodeIfPresent(String.self, forKey: .scope)
        issuedTokenType = try c.decodeIfPresent(String.self, forKey: .issuedTokenType)
        deviceSecret = try c.decodeIfPresent(String.self, forKey: .deviceSecret)
    }
}

/// OAuth 2.0 grant types Sesame speaks (RFC 6749 §4). Only what the token endpoint
/// implements is listed (token exchange, RFC 8693, comes with single sign-on and federation).
/// There is deliberately no `password` case: RFC 9700 §2.4 forbids the password grant.
public enum GrantType: String, Codable, Sendable, CaseIterable {
    case authorizationCode = "authorization_code"
    case refreshToken = "refresh_token"
    case clientCredentials = "client_credentials"
}

/// How a client authenticates at the token endpoint (RFC 7591 §2, OIDC Core §9).
public enum ClientAuthenticationMethod: String, Codable, Sendable, CaseIterable {
    /// Public clients (native apps, RFC 8252 §8.4): `client_id` only, PKCE required.
    case none
    case clientSecretBasic = "client_secret_basic"
    case clientSecretPost = "client_secret_post"
}

/// Token type hints (RFC 7009 §2.1, RFC 7662 §2.1).
public enum TokenTypeHint: String, Codable, Sendable {
    case accessToken = "access_token"
    case refreshToken = "refresh_token"
}

/// OAuth 2.0 Token Exchange (RFC 8693): the request parameters of §2.1 and the token type
/// identifiers of §3. Sesame uses it for single sign-on across a vendor's apps
/// (``NativeSSO``); every exchange goes through one grant at `/token`.
public enum TokenExchange {
    /// RFC 8693 §2.1 `grant_type`.
    public static let grantType = GrantType.tokenExchange.rawValue

    /// RFC 8693 §2.1 request parameters.
    public enum Parameter {
        public static let subjectToken = "subject_token"
        public static let subjectTokenType = "subject_token_type"
        public static let actorToken = "actor_token"
        public static let actorTokenType = "actor_token_type"
        public static let audience = "audience"
        public static let resource = "resource"
        public static let requestedTokenType = "requested_token_type"
    }

    /// RFC 8693 §3 token type identifiers, and Native SSO 1.0 §4.1 `device-secret`.
    public enum TokenType {
        public static let accessToken = "urn:ietf:params:oauth:token-type:access_token"
        public static let refreshToken = "urn:ietf:params:oauth:token-type:refresh_token"
        public static let idToken = "urn:ietf:params:oauth:token-type:id_token"
        public static let deviceSecret = "urn:openid:params:token-type:device-secret"
    }
}

/// OAuth 2.0 Token Exchange (RFC 8693): the request parameters of §2.1 and the token type
/// identifiers of §3. Sesame uses it for single sign-on across a vendor's apps
/// (``NativeSSO``); every exchange goes through one grant at `/token`.
public enum TokenExchange {
    /// RFC 8693 §2.1 `grant_type`.
    public static let grantType = GrantType.tokenExchange.rawValue

    /// RFC 8693 §2.1 request parameters.
    public enum Parameter {
        /// RFC 8693 §2.1 `subject_token`: the token standing for the user; for Native SSO, a
        /// sibling app's ID token.
        public static let subjectToken = "subject_token"
        /// RFC 8693 §2.1 `subject_token_type`: a `TokenType` identifier for `subject_token`.
        public static let subjectTokenType = "subject_token_type"
        /// RFC 8693 §2.1 `actor_token`; for Native SSO, the device secret.
        public static let actorToken = "actor_token"
        /// RFC 8693 §2.1 `actor_token_type`; for Native SSO, `TokenType.deviceSecret`.
        public static let actorTokenType = "actor_token_type"
        /// RFC 8693 §2.1 `audience`: where the new token is to be used; at Sesame, the issuer
        /// (Native SSO 1.0 §4.1).
        public static let audience = "audience"
        /// RFC 8693 §2.1 `resource`: the URI of the target service; at Sesame only the issuer.
        public static let resource = "resource"
        /// RFC 8693 §2.1 `requested_token_type`; Sesame issues access tokens.
        public static let requestedTokenType = "requested_token_type"
    }

    /// RFC 8693 §3 token type identifiers, and Native SSO 1.0 §4.1 `device-secret`.
    public enum TokenType {
        /// RFC 8693 §3: an OAuth 2.0 access token; the `issued_token_type` of Sesame's exchanges.
        public static let accessToken = "urn:ietf:params:oauth:token-type:access_token"
        /// RFC 8693 §3: an OAuth 2.0 refresh token.
        public static let refreshToken = "urn:ietf:params:oauth:token-type:refresh_token"
        /// RFC 8693 §3: an OpenID Connect ID token; the subject token of Native SSO and federation.
        public static let idToken = "urn:ietf:params:oauth:token-type:id_token"
        /// Native SSO 1.0 §4.1: the device secret, sent as the actor token.
        public static let deviceSecret = "urn:openid:params:token-type:device-secret"
    }
}

/// OAuth 2.0 grant types Sesame speaks (RFC 6749 §4, RFC 8693 §2.1). Only what the token
/// endpoint implements is listed.
/// There is deliberately no `password` case: RFC 9700 §2.4 forbids the password grant.
public enum GrantType: String, Codable, Sendable, CaseIterable {
    /// RFC 6749 §4.1.3: redeem an authorization code (browser or `/authorize-challenge` sign-in)
    /// with its PKCE `code_verifier`.
    case authorizationCode = "authorization_code"
    /// RFC 6749 §6: new tokens for a refresh token. Each use rotates it; presenting a spent one
    /// revokes the whole family (RFC 9700 §4.14.2).
    case refreshToken = "refresh_token"
    /// RFC 6749 §4.4: a confidential client's token for itself, with no user (`sub` is the client).
    case clientCredentials = "client_credentials"
    /// RFC 8693 token exchange: single sign-on across a vendor's apps (``NativeSSO``).
    case tokenExchange = "urn:ietf:params:oauth:grant-type:token-exchange"
    /// RFC 8628 §3.4: a device without a browser (a TV, a watch, a shell) polls with the
    /// `device_code` of its device authorization request until the user approves it elsewhere.
    case deviceCode = "urn:ietf:params:oauth:grant-type:device_code"
}

/// How a client authenticates at the token endpoint (RFC 7591 §2, OIDC Core §9).
public enum ClientAuthenticationMethod: String, Codable, Sendable, CaseIterable {
    /// Public clients (native apps, RFC 8252 §8.4): `client_id` only, PKCE required.
    case none
    /// RFC 6749 §2.3.1: `client_id` and secret in an HTTP Basic `Authorization` header.
    case clientSecretBasic = "client_secret_basic"
    /// RFC 6749 §2.3.1: `client_id` and `client_secret` in the form body.
    case clientSecretPost = "client_secret_post"
    /// RFC 7523 §2.2 / OIDC Core §9: a JWT signed with the client's private key, whose public
    /// key the operator registered.
    case privateKeyJWT = "private_key_jwt"
    /// RFC 8705 §2.1: mutual TLS with a certificate from a CA the server trusts, whose subject
    /// DN or one subject alternative name the operator registered (`tls_client_auth_subject_dn`,
    /// `tls_client_auth_san_dns`…, ``TLSClientAuthSubject``).
    case tlsClientAuth = "tls_client_auth"
    /// RFC 8705 §2.2: mutual TLS with a self-signed certificate whose public key is in the
    /// client's registered JSON Web Key Set.
    case selfSignedTLSClientAuth = "self_signed_tls_client_auth"

    /// Whether the client proves itself with its TLS client certificate (RFC 8705 §2).
    public var isMutualTLS: Bool { self == .tlsClientAuth || self == .selfSignedTLSClientAuth }
}

/// Token type hints (RFC 7009 §2.1, RFC 7662 §2.1).
public enum TokenTypeHint: String, Codable, Sendable {
    /// RFC 7009 §2.1 `access_token`. Revoking one blocks its `jti` until it would have expired.
    case accessToken = "access_token"
    /// RFC 7009 §2.1 `refresh_token`. Revoking one revokes its whole grant, access tokens included.
    case refreshToken = "refresh_token"
    /// Native SSO: revoke the whole device session (``NativeSSO/deviceSecretHint``).
    case deviceSecret = "device_secret"
}

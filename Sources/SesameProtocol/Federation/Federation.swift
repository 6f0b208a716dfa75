/// Signing in with an identity another provider vouches for (docs/federation.md): a vendor's
/// own OpenID provider, Google, Apple or Facebook. The app sends the provider's token to
/// `/token` as an RFC 8693 token exchange, naming the provider.
public enum Federation {
    /// The token exchange parameter that names the provider: its registered id or its issuer.
    /// (RFC 8693 leaves "which issuer" to the profile; the name is the one Keycloak and others use.)
    public static let subjectIssuerParameter = "subject_issuer"
    /// The `nonce` the app put into the provider's sign-in, checked against the token (Apple:
    /// against its SHA-256).
    public static let nonceParameter = "nonce"
    /// `amr` of a federated sign-in (RFC 8176 §2 allows values beyond its registry).
    public static let authenticationMethod = "fed"

    /// The kinds of provider the server knows how to check.
    public enum Kind: String, Codable, Sendable, CaseIterable {
        /// Any OpenID provider, a vendor's own included: ID tokens checked against its JWKS.
        case oidc
        /// Google Sign-In: ID tokens from `https://accounts.google.com`, checked against Google's JWKS;
        /// with several audiences, `azp` must be a registered one.
        case google
        /// Sign in with Apple: `nonce` is SHA-256 of the app's raw nonce, hex.
        case apple
        /// Facebook Login: access tokens (not JWTs), checked at the provider's token inspection
        /// endpoint (`debug_token`) with the app's credentials, the profile read from its Graph API.
        case facebook
    }
}

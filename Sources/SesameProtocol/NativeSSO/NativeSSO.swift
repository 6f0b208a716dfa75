/// OpenID Connect Native SSO for Mobile Apps 1.0 (draft 07): what client and server share.
///
/// - §3.1: an app asks for the ``scope`` `device_sso` (with `openid`) to get a
///   `device_secret` (§3.2) in the token response, and an ID token with `sid` and `ds_hash`
///   (§3.4.1).
/// - §3.3: the app sends the ``deviceSecretParameter`` it already has with the code exchange
///   (MUST) and on refresh (SHOULD), so the server can reuse or rotate it.
/// - §4: a sibling app of the same vendor exchanges the ID token (subject) and the device
///   secret (actor) at `/token` (RFC 8693, ``TokenExchange``) for its own tokens.
/// - §5: discovery says ``discoveryKey`` `native_sso_supported`.
public enum NativeSSO {
    /// §3.1 scope value.
    public static let scope = "device_sso"
    /// §3.3 token request parameter and §3.4 token response member.
    public static let deviceSecretParameter = "device_secret"
    /// §3.4.1 ID token claim binding the token to the device secret.
    public static let deviceSecretHashClaim = "ds_hash"
    /// §5 discovery metadata.
    public static let discoveryKey = "native_sso_supported"
    /// The revocation `token_type_hint` with which an app ends the whole device session
    /// ("sign out everywhere": every app of the vendor on this device). Sesame's extension of
    /// RFC 7009 §2.1, which lets servers define further hints.
    public static let deviceSecretHint = "device_secret"
}

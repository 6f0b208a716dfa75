/// Every form or query parameter name a Sesame endpoint reads: the OAuth 2.0 and OpenID
/// Connect request parameters (RFC 6749 §4.1.1, §4.1.3, §5.1, §6, §4.4; RFC 7636 §4.3; RFC 7009
/// §2.1; RFC 7662 §2.1; OIDC Core §3.1.2.1, §5.5; RP-Initiated Logout §2; OAuth 2.0 for
/// First-Party Applications §4.1) and the fields of the hosted pages' forms.
///
/// RFC 6749 §3.1: "The authorization server MUST ignore unrecognized request parameters.
/// Request and response parameters MUST NOT be included more than once." A repeated name from
/// this set makes a request invalid; any other name is ignored, repeated or not
/// (``FormURLEncoding/decode(_:recognized:repeatable:)``). The exception is ``repeatable``.
public enum RecognizedParameters {
    /// The names a request may repeat: RFC 8707 §2 `resource` ("multiple resource parameters").
    /// Their values arrive joined by a space, which no absolute URI contains.
    public static let repeatable: Set<String> = ["resource"]

    /// Every recognized name; each may appear at most once in a request (RFC 6749 §3.1).
    public static let all: Set<String> = [
        // Authorization request (RFC 6749 §4.1.1, RFC 7636 §4.3, OIDC Core §3.1.2.1, §5.5, §6)
        "response_type", "client_id", "redirect_uri", "scope", "state", "response_mode", "nonce", "display",
        "prompt", "max_age", "ui_locales", "claims_locales", "id_token_hint", "login_hint", "acr_values",
        "claims", "request", "request_uri", "registration", "code_challenge", "code_challenge_method",
        // DPoP (RFC 9449 §10): the key a code is bound to
        "dpop_jkt",
        // Token request (RFC 6749 §4.1.3, §6, §2.3.1; RFC 7636 §4.5)
        "grant_type", "code", "code_verifier", "refresh_token", "client_secret",
        // Revocation and introspection (RFC 7009 §2.1, RFC 7662 §2.1)
        "token", "token_type_hint",
        // UserInfo in a form body (RFC 6750 §2.2; refused, but recognized)
        "access_token",
        // RP-Initiated Logout 1.0 §2
        "post_logout_redirect_uri", "logout_hint",
        // OAuth 2.0 for First-Party Applications (authorization challenge)
        "username", "password", "auth_session", "mfa_method", "mfa_code",
        // The hosted pages' own fields
        "csrf_token", "confirm", "email", "email_editable", "name", "new_password", "resend",
        // The hosted sign-in's reference to the authorization request held on the server
        "authorization_ref",
        // The PIN unlock grant (docs/pin-devices.md)
        "registration_id", "signature",
        // Token exchange (RFC 8693 §2.1), Native SSO (draft 07 §3.3), RFC 7523 §2.2
        "subject_token", "subject_token_type", "actor_token", "actor_token_type", "audience", "resource",
        "requested_token_type", "device_secret", "client_assertion", "client_assertion_type", "subject_issuer",
        // The hosted login page's "Continue with …" (docs/federation.md)
        "provider", "error",
        // The hosted pages' challenge solution (docs/abuse-protection.md)
        "challenge_token", "challenge_nonce",
        // Passkeys (docs/passkeys.md): native sign-in and the hosted pages' WebAuthn answers
        "challenge_type", "passkey_assertion", "passkey_registration",
        // Device authorization grant (RFC 8628 §3.1, §3.4): the device code, the user code of the
        // verification page, its decision, and Sesame's device_name
        "device_code", "user_code", "decision", "device_name",
        // The admin console's client form (docs/admin.md)
        "redirect_uris", "post_logout_redirect_uris", "mfa_policy", "require_par", "dpop",
    ]
}

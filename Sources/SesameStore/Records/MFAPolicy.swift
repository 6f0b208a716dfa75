/// Whether a client's sign-ins ask for a second factor ("MFA policy"; docs/first-party-and-accounts.md
///). Stored per client (``ClientRecord/mfaPolicy``), set with
/// `sesame client add --mfa-policy` or the seed key `mfa_policy`.
///
/// Whatever the policy, a request whose `acr_values` accept only `urn:sesame:acr:mfa` (or a
/// step-up) always asks for a second factor; `acr_values` listing both `urn:sesame:acr:pwd` and
/// `urn:sesame:acr:mfa` leave the decision to the policy (``RequestedACR``, OIDC Core §3.1.2.1).
public enum MFAPolicy: String, Codable, Sendable, CaseIterable {
    /// Password only, unless the request accepts only `urn:sesame:acr:mfa`.
    case never
    /// A second factor for users who enrolled one (the default).
    case whenEnrolled = "when_enrolled"
    /// A second factor for everyone; users without an enrolled method get email codes when
    /// their email address is verified and are refused otherwise.
    case always
}

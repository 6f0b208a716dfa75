/// Whether a client's sign-ins ask for a second factor (SPEC §2 "MFA policy"; issue #5
/// contract). Stored per client (``ClientRecord/mfaPolicy``), set with
/// `sesame client add --mfa-policy` or the seed key `mfa_policy`.
///
/// Whatever the policy, a request with `acr_values=urn:sesame:acr:mfa` (or a step-up) always
/// asks for a second factor.
public enum MFAPolicy: String, Codable, Sendable, CaseIterable {
    /// Password only, unless the request asks for `urn:sesame:acr:mfa`.
    case never
    /// A second factor for users who enrolled one (the default).
    case whenEnrolled = "when_enrolled"
    /// A second factor for everyone; users without an enrolled method get email codes when
    /// their email address is verified and are refused otherwise.
    case always
}

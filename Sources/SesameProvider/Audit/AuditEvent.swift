import SesameStore
import Foundation

/// The security decisions the audit log records (docs/abuse-protection.md, "Audit log"): the
/// `event` of an ``AuditRecord``, `area.outcome`. `sesame audit --event sign_in.` selects an area.
package enum AuditEvent: String, Sendable, CaseIterable {
    // Sign-in (hosted page and /authorize-challenge)
    case signInSucceeded = "sign_in.succeeded"
    /// Reason: `invalid_credentials`.
    case signInFailed = "sign_in.failed"
    /// The password was not checked: too many failures for the name or the address (lockout).
    case signInThrottled = "sign_in.throttled"
    // Second factors
    case mfaSent = "mfa.sent"
    case mfaVerified = "mfa.verified"
    /// Reason: `invalid_code`, `expired`, `malformed_code`, `attempts_exhausted` (the wrong code
    /// that used the last attempt: the auth session, or a pending enrolment, ends; once each),
    /// `no_attempts_left` (none was left: the code was not compared).
    case mfaFailed = "mfa.failed"
    // Tokens
    /// A rotated refresh token was presented again; its family is revoked (RFC 9700 §4.14.2).
    /// Only a token that was used before: one of a family ended for another reason is
    /// `refresh.refused`.
    case refreshReuseDetected = "refresh.reuse_detected"
    /// A refresh token that was never used, of a family already ended. Reason: why the family
    /// ended (``RefreshFamilyRevocationReason``: `revoked`, `signed_out`, `code_replayed`, …).
    case refreshRefused = "refresh.refused"
    /// An authorization code was presented a second time by its client; the tokens issued from
    /// it are revoked (RFC 6749 §4.1.2, RFC 9700 §4.2.4). Detail `family_revoked`.
    case codeReplayed = "code.replayed"
    /// The user had more live sessions than the server keeps; the least recently used was
    /// closed (detail `client_id` scope: `per_client` or `per_user`).
    case sessionEvicted = "session.evicted"
    /// RFC 7009 revocation of a refresh or access token.
    case tokenRevoked = "token.revoked"
    // Accounts
    case accountCreated = "account.created"
    case passwordResetRequested = "account.password_reset_requested"
    case passwordReset = "account.password_reset"
    case passwordChanged = "account.password_changed"
    case accountDeleted = "account.deleted"
    /// A one-time account code is dead after its last attempt was a wrong code (detail `purpose`).
    case verificationCodeExhausted = "account.code_exhausted"
    // Device authorization grant (RFC 8628)
    /// The user approved a device's request on the `/device` page (detail `device_name`).
    case deviceApproved = "device.approved"
    /// The user denied a device's request on the `/device` page.
    case deviceDenied = "device.denied"
    /// A typed user code was refused: too many wrong codes from the address or deployment-wide
    /// (RFC 8628 §5.1). Reason: `address` or `deployment`.
    case userCodeThrottled = "device.user_code_throttled"
    // PIN-protected devices
    case pinRegistered = "pin.registered"
    case pinUnlocked = "pin.unlocked"
    /// Reason: `wrong_pin` (detail `remaining`).
    case pinFailed = "pin.failed"
    /// Reason: `removed` (by the user) or `too_many_wrong_pins`.
    case pinRemoved = "pin.removed"
    // Single sign-on across a vendor's apps (Native SSO)
    /// A sign-in with `device_sso` opened a device session (detail `app_group`).
    case deviceSessionOpened = "sso.device_session_opened"
    /// Reason: `signed_out_everywhere`.
    case deviceSessionEnded = "sso.device_session_ended"
    /// A sibling app joined the device session (detail `from_client_id`, `app_group`).
    case ssoExchanged = "sso.exchanged"
    /// Reason: the Native SSO 1.0 §4.3 rule that failed (``NativeSSOExchange``).
    case ssoRefused = "sso.refused"
    // Federation
    /// Reason: `signedIn`, `linked` or `created` (detail `provider`).
    case federationSignedIn = "federation.signed_in"
    case federationLinked = "federation.linked"
    /// The user unlinked a provider's identity (detail `provider`).
    case federationUnlinked = "federation.unlinked"
    case federationAccountCreated = "federation.account_created"
    /// Reason: the rule (``FederationRefusal/rule``).
    case federationRefused = "federation.refused"
    // Passkeys (WebAuthn)
    /// Detail `key_kind`, `attestation`.
    case passkeyRegistered = "passkey.registered"
    case passkeyRenamed = "passkey.renamed"
    case passkeyRemoved = "passkey.removed"
    /// A passkey signed in or stepped up (detail `purpose`, `key_kind`, `user_verified`).
    case passkeyUsed = "passkey.used"
    /// Reason: the WebAuthn step that failed (``PasskeyRefusal/reason``), e.g. `origin`, `sign_count`.
    case passkeyRefused = "passkey.refused"
    /// Too many assertions in a row whose signature did not verify (for a software passkey: wrong
    /// PINs) locked the credential (detail `credential_id`, `failures`); recorded once per lock.
    case passkeyLocked = "passkey.locked"
    // Abuse protection
    case challengeIssued = "challenge.issued"
    case challengeSolved = "challenge.solved"
    /// Reason: ``ChallengeToken/Refusal``.
    case challengeRefused = "challenge.refused"
    /// The first refusal of a key in a rate-limit window (not every refused request).
    case rateLimited = "rate_limit.exceeded"
    /// Records were dropped because the buffer was full (detail `count`).
    case auditDropped = "audit.dropped"
    // Administration (the CLI and the seed file)
    case clientAdded = "admin.client_added"
    case clientUpdated = "admin.client_updated"
    case clientRemoved = "admin.client_removed"
    case clientSecretRotated = "admin.client_secret_rotated"
    /// Dynamic client registration (RFC 7591, RFC 7592): a client registered itself, changed or
    /// deleted its registration.
    case clientRegistered = "client.registered"
    case clientRegistrationUpdated = "client.registration_updated"
    case clientRegistrationDeleted = "client.registration_deleted"
    /// An operator created an initial access token for registration (never the token).
    case initialAccessTokenCreated = "admin.initial_access_token_created"
    /// An API (RFC 8707 resource) was registered or changed; `detail.api` names it.
    case apiAdded = "admin.api_added"
    case apiRemoved = "admin.api_removed"
    case userAdded = "admin.user_added"
    case userUpdated = "admin.user_updated"
    case userRemoved = "admin.user_removed"
    /// An administrator disabled or enabled an account (issue #47); `detail.actor` names who.
    case userDisabled = "admin.user_disabled"
    case userEnabled = "admin.user_enabled"
    /// An administrator cleared an account's sign-in lockouts.
    case userUnlocked = "admin.user_unlocked"
    /// An administrator ended one or all of an account's sessions.
    case userSessionsEnded = "admin.sessions_ended"
    /// An operator role was granted or taken away.
    case roleChanged = "admin.role_changed"
    /// The admin API refused a request for a missing role or an old sign-in.
    case adminRefused = "admin.refused"
    case keysRotated = "admin.keys_rotated"
    /// One signing key retired (`detail.kid`; `detail.immediately` when it left the key set at once).
    case keyRetired = "admin.key_retired"
    case providerAdded = "admin.provider_added"
    case providerRemoved = "admin.provider_removed"
    case providerUpdated = "admin.provider_updated"
}

extension AuditEvent {
    /// The record of an administrative change made outside a request (`via` the CLI or the
    /// seed file): no address, client or request, the tool in `detail["via"]`.
    package func adminRecord(via: String, userID: String? = nil, detail: [String: String] = [:]) -> AuditRecord {
        var detail = detail
        detail["via"] = via
        return AuditRecord(time: Date(), event: rawValue, userID: userID, detail: detail)
    }
}

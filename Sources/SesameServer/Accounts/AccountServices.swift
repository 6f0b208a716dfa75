import Foundation
import Logging

/// The parts of the server the account slice uses (sign-up, password reset and change, email
/// change, profile, devices, account deletion, their codes and mail), and nothing else: no
/// pages, cookies, signing keys or token issuance. Built once from ``ServerServices``; the
/// account endpoints, ``AccountSelfService`` and ``VerificationCodes`` take it.
struct AccountServices: Sendable {
    let store: any ProviderStore
    /// Verification codes, the outbox and devices.
    let accountStore: any AccountStore
    /// MFA enrolments, removed with the account.
    let mfaStore: any MFAStore
    /// RFC 6750 bearer-token authentication of the account APIs.
    let bearerAuthentication: BearerAuthentication
    /// Password checks (current-password confirmation) and hashing.
    let credentials: CredentialVerifier
    let localizer: any Localizer
    /// Where account mail goes, and how much of it a recipient or an address may cause.
    let messageSender: any MessageSender
    let mailQuota: MailQuota
    let now: @Sendable () -> Date
    let logger: Logger
    /// Challenges for sign-up and password-reset requests that look automated; `nil`: none.
    let challenges: ChallengeGate?
    let audit: AuditLog
    /// Passkey ceremonies.
    let passkeys: Passkeys

    init(_ services: ServerServices) {
        store = services.store
        accountStore = services.accountStore
        mfaStore = services.mfaStore
        bearerAuthentication = services.bearerAuthentication
        credentials = services.credentials
        localizer = services.localizer
        messageSender = services.messageSender
        mailQuota = services.mailQuota
        now = services.now
        logger = services.logger
        challenges = services.challenges
        audit = services.audit
        passkeys = services.passkeys
    }
}

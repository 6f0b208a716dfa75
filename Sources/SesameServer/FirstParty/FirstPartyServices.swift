import Foundation

/// The parts of the server native sign-in uses (`/authorize-challenge`, its auth sessions and
/// second factors, step-up, MFA enrolment): no hosted pages, cookies or browser sessions. Built
/// once from ``ServerServices``; the hosted login page's MFA step builds one too, to share
/// ``AuthSessionFlow``.
struct FirstPartyServices: Sendable {
    let issuer: URL
    let store: any ProviderStore
    /// MFA enrolments, auth sessions and one-time codes.
    var mfaStore: any MFAStore { store }
    /// Where MFA codes go.
    let messageSender: any MessageSender
    /// Seals TOTP secrets at rest (``TOTPAuthenticator``).
    let keyRing: KeyRing
    let credentials: CredentialVerifier
    let clientAuthenticator: ClientAuthenticator
    /// RFC 6750 bearer-token authentication of the MFA enrolment APIs.
    let bearerAuthentication: BearerAuthentication
    let localizer: any Localizer
    let metrics: ServerMetrics
    let authorizationCodeLifetime: TimeInterval
    let now: @Sendable () -> Date
    /// Challenges for sign-ins that look automated; `nil`: none.
    let challenges: ChallengeGate?
    let audit: AuditLog
    /// Passkey ceremonies.
    let passkeys: Passkeys

    init(_ services: ServerServices) {
        issuer = services.issuer
        store = services.store
        messageSender = services.messageSender
        keyRing = services.keyRing
        credentials = services.credentials
        clientAuthenticator = services.clientAuthenticator
        bearerAuthentication = services.bearerAuthentication
        localizer = services.localizer
        metrics = services.metrics
        authorizationCodeLifetime = services.authorizationCodeLifetime
        now = services.now
        challenges = services.challenges
        audit = services.audit
        passkeys = services.passkeys
    }
}

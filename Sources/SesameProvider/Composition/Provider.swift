import Crypto
import Foundation
import Logging
import SesameStore

/// The identity core, composed once (the composition root of the provider's logic, as
/// hummingbird-examples' `buildRouter` builds its repository once): every service of the OpenID
/// provider over one store, with nothing of HTTP. The server's features take the parts they use
/// from it; no part is built again per request, and none builds another.
package final class Provider: Sendable {
    package let settings: ProviderSettings
    package let store: any ProviderStore
    package let keyRing: KeyRing
    package let audit: AuditLog
    package let localizer: any Localizer
    package let messageSender: any MessageSender
    package let now: @Sendable () -> Date

    // Credentials, tokens and their checks
    package let credentials: CredentialVerifier
    package let tokenIssuer: TokenIssuer
    package let accessTokens: AccessTokenVerifier
    package let clientAssertions: ClientAssertionVerifier
    package let sessionCap: SessionCap
    package let grants: TokenGrants
    package let dpopProofs: DPoPProofCheck

    // Authorization requests
    package let requestValidator: AuthorizationRequestValidator
    package let pushedRequests: PushedAuthorizationRequests
    package let pendingAuthorizations: PendingAuthorizations

    // Features
    package let passkeys: Passkeys
    package let deviceSessions: DeviceSessions
    package let deviceAuthorizations: DeviceAuthorizations
    package let pin: PINRegistrations
    package let federation: FederationExchange
    /// A federation provider's endpoints, for the hosted "Continue with …" sign-in.
    package let upstream: UpstreamProvider
    package let authSessions: AuthSessionFlow
    package let mfaDelivery: MFACodeDelivery
    package let totp: TOTPAuthenticator
    package let enrollment: EnrollmentConfirmation
    package let accounts: AccountSelfService
    package let verificationCodes: VerificationCodes
    package let mailQuota: MailQuota

    // The admin API (issue #47).
    package let users: UserAdministration
    package let clients: ClientAdministration
    package let signingKeys: SigningKeyAdministration
    package let overview: OperatorOverview
    package let providers: ProviderAdministration
    /// The registered APIs (RFC 8707, issue #49).
    package let apis: APIAdministration
    /// Dynamic client registration (RFC 7591, RFC 7592), within ``ProviderSettings/registration``.
    package let registrations: ClientRegistrations
    package let provisioning: UserProvisioning
    package let bootstrap: AdminBootstrap

    /// Builds every part from `settings`.
    /// - Parameters:
    ///   - upstream: how the core reaches federation providers (their keys and token endpoints).
    ///   - metrics: counters of the grants (refresh outcomes), or ``ProviderMetrics`` that count nothing.
    package init(
        settings: ProviderSettings, store: any ProviderStore, keyRing: KeyRing, masterKey: SymmetricKey,
        passwordHasher: any PasswordHasher, blockingWork: any BlockingWorkPool, messageSender: any MessageSender,
        localizer: any Localizer, upstream: any UpstreamTransport, metrics: any ProviderMetrics, audit: AuditLog,
        logger: Logger, now: @escaping @Sendable () -> Date
    ) throws {
        let issuer = settings.issuerIdentifier
        self.settings = settings
        self.store = store
        self.keyRing = keyRing
        self.audit = audit
        self.localizer = localizer
        self.messageSender = messageSender
        self.now = now

        credentials = try CredentialVerifier(
            hasher: passwordHasher, pool: blockingWork, throttle: LoginThrottle(policy: settings.loginThrottle, now: now),
            sharedThrottle: store, rehashStore: store)
        tokenIssuer = TokenIssuer(issuer: issuer, keyRing: keyRing, now: now)
        accessTokens = AccessTokenVerifier(issuer: issuer, keyRing: keyRing, store: store, now: now)
        clientAssertions = ClientAssertionVerifier(issuer: issuer, replay: store, now: now)
        sessionCap = SessionCap(store: store, limits: settings.sessionLimits, audit: audit)
        dpopProofs = DPoPProofCheck(policy: settings.dpop, masterKey: masterKey, store: store, now: now)

        deviceAuthorizations = DeviceAuthorizations(
            store: store, policy: settings.deviceAuthorization, issuer: issuer, masterKey: masterKey, now: now)
        requestValidator = AuthorizationRequestValidator(store: store, deviceCallbackURI: deviceAuthorizations.callbackURI)
        pushedRequests = PushedAuthorizationRequests(store: store, validator: requestValidator, now: now)
        pendingAuthorizations = PendingAuthorizations(
            store: store, validator: requestValidator, lifetime: settings.signInTimeout, now: now)

        passkeys = Passkeys(policy: settings.passkeys, issuer: settings.issuer, store: store, audit: audit, now: now)
        deviceSessions = DeviceSessions(store: store, policy: settings.nativeSSO, audit: audit, now: now)
        pin = PINRegistrations(
            store: store, nonces: PINNonceIssuer(masterKey: masterKey, redemptions: store, now: now), audit: audit, now: now)

        let keys = ProviderKeys(transport: upstream, now: now)
        self.upstream = UpstreamProvider(transport: upstream, now: now)
        var federation = FederationExchange(
            store: store, federation: store, validator: FederatedTokenValidator(keys: keys, now: now),
            accounts: FederatedAccounts(store: store, federation: store, audit: audit, now: now),
            facebook: FacebookTokenInspector(transport: upstream, now: now), tokenIssuer: tokenIssuer,
            sessionCap: sessionCap, now: now)
        federation.openSecret = { [keyRing] provider in
            try keyRing.openSecret(provider.brokerClientSecretSealed ?? "", context: ProviderSecrets.context(provider.id))
        }
        self.federation = federation

        mfaDelivery = MFACodeDelivery(messageSender: messageSender, localizer: localizer, now: now)
        totp = TOTPAuthenticator(keyRing: keyRing, store: store, now: now)
        enrollment = EnrollmentConfirmation(store: store, localizer: localizer, audit: audit, now: now)
        authSessions = AuthSessionFlow(
            store: store, passkeys: passkeys, delivery: mfaDelivery, totp: totp, audit: audit, now: now)
        mailQuota = MailQuota(policy: settings.mailQuota, now: now, shared: store)
        verificationCodes = VerificationCodes(
            store: store, messageSender: messageSender, localizer: localizer, mailQuota: mailQuota, audit: audit,
            logger: logger, now: now)
        accounts = AccountSelfService(
            store: store, credentials: credentials, codes: verificationCodes, mailQuota: mailQuota, now: now)
        users = UserAdministration(store: store, audit: audit, now: now)
        clients = ClientAdministration(store: store, audit: audit, now: now)
        signingKeys = SigningKeyAdministration(store: store, keyRing: keyRing, audit: audit, now: now)
        overview = OperatorOverview(store: store, keyRing: keyRing, now: now)
        providers = ProviderAdministration(store: store, keyRing: keyRing, audit: audit, now: now)
        apis = APIAdministration(store: store, audit: audit, now: now)
        registrations = ClientRegistrations(
            policy: settings.registration, store: store, issuer: issuer, audit: audit, now: now)
        bootstrap = AdminBootstrap(store: store, audit: audit, now: now)
        provisioning = UserProvisioning(
            store: store, credentials: credentials, codes: verificationCodes, users: users, audit: audit, now: now)

        let nativeSSO = NativeSSOExchange(
            store: store, sessions: deviceSessions, tokenIssuer: tokenIssuer, sessionCap: sessionCap, keyRing: keyRing,
            now: now)
        grants = TokenGrants(
            authorizationCode: AuthorizationCodeGrant(
                store: store, mfaStore: store, tokenIssuer: tokenIssuer, sessionCap: sessionCap,
                deviceSessions: deviceSessions, audit: audit, now: now),
            refreshToken: RefreshTokenGrant(
                store: store, tokenIssuer: tokenIssuer, metrics: metrics, audit: audit, deviceSessions: deviceSessions,
                now: now),
            clientCredentials: ClientCredentialsGrant(tokenIssuer: tokenIssuer, store: store),
            tokenExchange: TokenExchangeGrant(nativeSSO: nativeSSO, federation: federation),
            pinUnlock: PINUnlockGrant(store: store, pin: pin, tokenIssuer: tokenIssuer, sessionCap: sessionCap, now: now),
            deviceCode: DeviceCodeGrant(
                store: store, tokenIssuer: tokenIssuer, sessionCap: sessionCap, deviceSessions: deviceSessions,
                policy: settings.deviceAuthorization, now: now))
    }

    /// The `iss` string.
    package var issuer: String { settings.issuerIdentifier }

    /// Issues a first-party authorization code (``FirstPartyCode``) with the server's code lifetime,
    /// for the client's default API if it has one (RFC 8707).
    package func issueFirstPartyCode(
        clientID: String, scope: String, codeChallenge: String, authentication: AuthenticationContext,
        reauthentication: Bool
    ) async throws -> String {
        var resources: [String] = []
        if let client = try await store.client(id: clientID) {
            resources = try await ResourceAuthorization(store: store).audience(
                requested: [], authorized: nil, client: client
            ).identifiers
        }
        return try await FirstPartyCode.issue(
            store: store, lifetime: settings.authorizationCodeLifetime, now: now(), clientID: clientID, scope: scope,
            codeChallenge: codeChallenge, authentication: authentication, reauthentication: reauthentication,
            resources: resources)
    }
}

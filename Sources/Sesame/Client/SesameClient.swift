import Foundation
import Logging
import SesameProtocol

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The entry point of the Sesame SDK (docs/capabilities.md): browser sign-in, native
/// first-party sign-in with MFA, step-up and re-authentication, sessions for several accounts,
/// valid access tokens with single-flight refresh, authenticated HTTP, userinfo, the account
/// APIs and logout. Composes small parts: `DiscoveryClient`, `TokenEndpointClient`,
/// `AuthorizationChallengeClient`, `AccountAPI`, ``IDTokenValidator`` with
/// `JWKSKeyStore`, `SessionRegistry` and `RefreshCoordinator`.
public actor SesameClient {
    let configuration: SesameConfiguration
    let clock: any SesameClock
    let logger: Logger
    let http: ProviderHTTP
    let discovery: DiscoveryClient
    let keyStore: JWKSKeyStore
    let validator: IDTokenValidator
    let clockOffset = ServerClockOffset()
    let tokenEndpoint: TokenEndpointClient
    let registry: SessionRegistry
    /// Where sessions and PIN records are kept (the registry owns the session records).
    let credentialStore: any CredentialStore
    let refreshes = RefreshCoordinator()
    let originPolicy: OriginPolicy
    let retryPolicy: RetryPolicy
    nonisolated let pending = PendingAuthorizations()
    nonisolated let broadcaster: EventBroadcaster
    /// The vendor's shared group for single sign-on across its apps; `nil`: none.
    let ssoShare: SSOShare?
    /// The app's analytics handler (``setAnalytics(_:)``).
    nonisolated let analytics: AnalyticsDispatcher
    /// The app's own key for `private_key_jwt` (kept in `store`).
    let assertionSigner: ClientAssertionSigner
    /// The cached app-level token (``appAccessToken(forceRefresh:)``).
    nonisolated let appTokens = AppTokenCache()
    /// The accounts' tokens for the app's APIs (``accessToken(forAPI:account:forceRefresh:)``).
    nonisolated let apiTokens = APITokenCache()
    /// Makes and loads the accounts' DPoP keys (RFC 9449): the Secure Enclave where the device
    /// has one, software keys otherwise.
    let dpopKeys: any DPoPKeyFactory = DPoPKeys.platformDefault

    /// - Parameters:
    ///   - configuration: issuer, client and redirect settings (checked on first use).
    ///   - store: where sessions are persisted.
    ///   - transport: HTTP; `nil` (default): a ``URLSessionTransport`` enforcing the configuration's
    ///     ``SesameConfiguration/pinning`` (on Linux, pins need `NIOTransport`).
    ///   - clock: time source for expiry and ID token checks.
    ///   - logger: a swift-log logger of the app's; `nil` (default): the SDK's own at
    ///     ``SesameConfiguration/logLevel`` (`warning` unless configured). Secrets are never logged.
    ///   - ssoGroup: the store the vendor's apps share for single sign-on (docs/native-sso.md):
    ///     a `KeychainCredentialStore` with the vendor's Keychain access group on Apple
    ///     platforms, an ``EncryptedFileCredentialStore`` in a shared directory elsewhere. Only
    ///     device secrets, ID tokens and account labels go there.
    public init(
        configuration: SesameConfiguration, store: any CredentialStore,
        transport: (any HTTPTransport)? = nil, clock: any SesameClock = SystemClock(),
        logger: Logger? = nil, ssoGroup: (any CredentialStore)? = nil
    ) {
        self.init(
            configuration: configuration, store: store,
            transport: transport ?? URLSessionTransport(pinning: configuration.pinning), clock: clock,
            logger: logger ?? configuration.logLevel.logger(), retryPolicy: RetryPolicy(), ssoGroup: ssoGroup)
    }

    /// As above, with an explicit ``RetryPolicy`` for transient refresh failures.
    public init(
        configuration: SesameConfiguration, store: any CredentialStore,
        transport: any HTTPTransport, clock: any SesameClock, logger: Logger,
        retryPolicy: RetryPolicy, jwksRefetchInterval: TimeInterval = 60, ssoGroup: (any CredentialStore)? = nil
    ) {
        self.configuration = configuration
        self.clock = clock
        self.logger = logger
        self.retryPolicy = retryPolicy
        let broadcaster = EventBroadcaster()
        self.broadcaster = broadcaster
        let analytics = AnalyticsDispatcher(clientID: configuration.clientID)
        self.analytics = analytics
        let http = ProviderHTTP(
            transport: transport,
            challenges: ChallengeResponder(
                solver: ProofOfWorkSolver(), ceiling: configuration.maximumChallengeDifficulty, events: broadcaster,
                logger: logger),
            pinning: configuration.pinning, analytics: analytics)
        self.http = http
        discovery = DiscoveryClient(issuer: configuration.issuer, http: http, logger: logger)
        keyStore = JWKSKeyStore(
            http: http, clock: clock, logger: logger, minimumRefetchInterval: jwksRefetchInterval)
        validator = IDTokenValidator(clientSecret: configuration.clientSecret)
        assertionSigner = ClientAssertionSigner(store: store, clientID: configuration.clientID)
        tokenEndpoint = TokenEndpointClient(
            configuration: configuration, http: http, clock: clock, clockOffset: clockOffset,
            logger: logger,
            assertionSigner: configuration.tokenEndpointAuthMethod == .privateKeyJWT ? assertionSigner : nil)
        registry = SessionRegistry(store: store, events: broadcaster, logger: logger)
        credentialStore = store
        originPolicy = OriginPolicy(configuration: configuration)
        ssoShare = ssoGroup.map { SSOShare(store: $0, logger: logger) }
    }

    /// Sends sign-in, single sign-on, step-up, logout and pin-mismatch events to `handler` (``AnalyticsEvent``);
    /// `nil` stops them.
    public nonisolated func setAnalytics(_ handler: (any SesameAnalytics)?) {
        analytics.set(handler)
    }

    /// A new subscriber stream of ``SesameEvent``s (each call is an independent subscriber).
    public nonisolated func events() -> AsyncStream<SesameEvent> {
        broadcaster.subscribe()
    }

    /// The provider metadata from discovery (cached after the first fetch).
    public func metadata() async throws(SesameError) -> ProviderMetadata {
        try configuration.validate()
        return try await discovery.metadata()
    }

    // MARK: Accounts

    /// Resumes the last session at launch from the store, without network; the current account.
    public func restore() async -> Account? {
        await registry.load()
        let account = await registry.currentAccount()
        logger.debug("restored sessions", metadata: ["signedIn": "\(account != nil)"])
        return account
    }

    /// Signed-in accounts, most recently used first.
    public func accounts() async -> [Account] { await registry.accounts() }

    /// The current account, if any.
    public func currentAccount() async -> Account? { await registry.currentAccount() }

    /// Makes another signed-in account current.
    public func switchAccount(to id: Account.ID) async throws(SesameError) {
        _ = try await registry.switchTo(id, at: clock.now())
    }

    /// The validated claims of the account's latest ID token (no network).
    public func idTokenClaims(for account: Account.ID? = nil) async throws(SesameError) -> IDTokenClaims {
        let (session, _) = try await registry.session(for: account)
        guard let claims = session.idTokenClaims else { throw .noSession }
        return claims
    }

    // MARK: ID tokens

    /// Validates an ID token against the provider's keys, refetching the JWKS once when the
    /// `kid` is unknown (key rotation, OIDC Core §10.1.1).
    func validateIDToken(_ jwt: String, expected: IDTokenExpectations, metadata: ProviderMetadata)
        async throws(SesameError) -> IDTokenClaims
    {
        let keys = try await keyStore.keys(from: metadata.jwksURI)
        do {
            return try validator.validate(jwt, expected: expected, keys: keys)
        } catch {
            guard case .invalidIDToken(.unknownKey, _) = error.reason,
                let fresh = await keyStore.refetchForUnknownKey(from: metadata.jwksURI)
            else { throw error }
            return try validator.validate(jwt, expected: expected, keys: fresh)
        }
    }

    func expectations(
        metadata: ProviderMetadata, nonce: String?, maxAge: Int?, acrValues: [String]?,
        claims: ClaimsRequest? = nil, accessToken: String?
    ) -> IDTokenExpectations {
        IDTokenExpectations(
            issuer: metadata.issuer, clientID: configuration.clientID, nonce: nonce, maxAge: maxAge,
            acrValues: acrValues, claims: claims, accessToken: accessToken, leeway: configuration.leeway,
            now: clockOffset.serverNow(clock))
    }
}

import Foundation
import Logging

/// Everything the endpoints need, built once at start and passed in (no globals).
struct ServerServices: Sendable {
    let issuer: URL
    /// `issuer.absoluteString` without a trailing slash: the `iss` value everywhere.
    let issuerIdentifier: String
    let store: any ProviderStore
    /// MFA enrolments, auth sessions and one-time codes (first-party sign-in slice).
    var mfaStore: any MFAStore { store }
    /// Verification codes, outbox and devices (accounts slice).
    var accountStore: any AccountStore { store }
    /// Where email and SMS messages go (outbox by default).
    let messageSender: any MessageSender
    let keyRing: KeyRing
    let credentials: CredentialVerifier
    let pages: PageRenderer
    let localizer: any Localizer
    let cookies: BrowserCookies
    /// The hosted forms' CSRF tokens, bound to the browser's pre-session cookie.
    let csrf: CSRFProtection
    let authorizationCodeLifetime: TimeInterval
    let browserSessionLifetime: TimeInterval
    let now: @Sendable () -> Date
    let logger: Logger
    /// Reverse proxies whose `X-Forwarded-For` names the client (``TrustedProxies``).
    var trustedProxies: TrustedProxies = .none
    /// Limits on account mail per recipient and per client address.
    var mailQuota = MailQuota()
    /// Counters and latencies for `/metrics` (``ServerMetrics``; no-ops when metrics are off).
    var metrics = ServerMetrics.off
    /// Request rate limits (``RequestRateLimits``); `nil`: none.
    var rateLimits: RequestRateLimits?
    /// Where the routes publish the documents answered on the event loop (``StaticDocuments``);
    /// `nil` when every request goes through the router.
    var staticDocuments: StaticDocuments?
    /// Proof-of-work and clear-pass challenges (``ChallengeGate``); `nil`: none.
    var challenges: ChallengeGate?
    /// The audit log of security decisions (``AuditLog``).
    var audit = AuditLog.off
    /// Single-use nonces for PIN unlock (``PINNonceIssuer``).
    let pinNonces: PINNonceIssuer
    /// DPoP proofs (RFC 9449): their stateless rules, the nonce when required, `jti` seen once.
    let dpopProofs: DPoPProofCheck
    /// `dpop_signing_alg_values_supported`.
    let dpopAlgorithms: [String]
    /// Federation providers: how the server reaches them, their keys and endpoints
    /// (``FederationClients``), kept for the server's life.
    let federationClients: FederationClients
    /// The device authorization grant's requests (RFC 8628) and the verification page's rules.
    let deviceAuthorizations: DeviceAuthorizations
    /// Single sign-on across a vendor's apps (``NativeSSOPolicy``).
    var nativeSSO = NativeSSOPolicy()
    /// Passkeys as a relying party (``PasskeyPolicy``).
    var passkeyPolicy = PasskeyPolicy()
    /// How many live sessions a user keeps (``SessionLimits``).
    var sessionLimits = SessionLimits()

    /// The cap on each user's live sessions, applied by every grant that opens a family.
    var sessionCap: SessionCap { SessionCap(store: store, limits: sessionLimits, audit: audit) }

    /// Passkey ceremonies.
    var passkeys: Passkeys {
        Passkeys(policy: passkeyPolicy, issuer: issuer, store: store, audit: audit, now: now)
    }

    /// Sign-in with a provider's ID token.
    var federationExchange: FederationExchange {
        let federation: any FederationStore = store
        var exchange = FederationExchange(
            store: store, federation: federation,
            validator: FederatedTokenValidator(keys: federationClients.keys, now: now),
            accounts: FederatedAccounts(store: store, federation: federation, audit: audit, now: now),
            facebook: FacebookTokenInspector(transport: federationClients.transport, now: now),
            tokenIssuer: tokenIssuer, sessionCap: sessionCap, now: now)
        let keyRing = keyRing
        exchange.openSecret = { provider in
            try keyRing.openSecret(provider.brokerClientSecretSealed ?? "", context: ProviderSecrets.context(provider.id))
        }
        return exchange
    }

    /// Native SSO device sessions.
    var deviceSessions: DeviceSessions {
        DeviceSessions(store: store, policy: nativeSSO, audit: audit, now: now)
    }

    var clientAuthenticator: ClientAuthenticator {
        ClientAuthenticator(
            store: store, verifier: credentials, rateLimits: rateLimits,
            assertions: ClientAssertionVerifier(
                issuer: issuerIdentifier, replay: store, now: now))
    }

    var tokenIssuer: TokenIssuer {
        TokenIssuer(issuer: issuerIdentifier, keyRing: keyRing, now: now)
    }

    var accessTokenVerifier: AccessTokenVerifier {
        AccessTokenVerifier(issuer: issuerIdentifier, keyRing: keyRing, store: store, now: now)
    }

    /// RFC 6750 bearer-token authentication of `/userinfo` and the account APIs.
    var bearerAuthentication: BearerAuthentication {
        BearerAuthentication(verifier: accessTokenVerifier, store: store, dpop: dpop)
    }

    var requestValidator: AuthorizationRequestValidator {
        AuthorizationRequestValidator(store: store, deviceCallbackURI: deviceAuthorizations.callbackURI)
    }

    /// Whether every client must push its authorization requests (RFC 9126 §5
    /// `require_pushed_authorization_requests`); a client can require it on its own too.
    var requirePushedRequests = false

    /// How long a held authorization request waits for the user (``ServerConfiguration/signInTimeout``).
    var signInTimeout = PendingAuthorizations.defaultLifetime

    /// Authorization requests held for a browser during its sign-in.
    var pendingAuthorizations: PendingAuthorizations {
        PendingAuthorizations(store: store, validator: requestValidator, lifetime: signInTimeout, now: now)
    }

    /// Pushed authorization requests (RFC 9126), checked as `/authorize` checks requests.
    var pushedRequests: PushedAuthorizationRequests {
        PushedAuthorizationRequests(store: store, validator: requestValidator, now: now)
    }

    /// The `DPoP` headers of requests to this server's own endpoints.
    var dpop: DPoPRequests {
        DPoPRequests(check: dpopProofs, issuer: issuerIdentifier, algorithms: dpopAlgorithms)
    }

    /// An endpoint URL under the issuer.
    func endpoint(_ path: String) -> URL {
        URL(string: issuerIdentifier + path)!
    }
}

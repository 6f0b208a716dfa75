import Crypto
import Foundation
import Logging

/// The HTTP front's shared parts, built once by ``IdentityServer`` for the composition root
/// (``SesameRouter``), which hands each feature the ones it uses: the hosted-page kit, how
/// requests authenticate (clients, bearer tokens, DPoP proofs), the limits and challenges, the
/// metrics, and where the event loop answers static documents. No endpoint sees this whole.
struct ServerFront: Sendable {
    let pages: HostedPages
    let clientAuthenticator: ClientAuthenticator
    let bearer: BearerAuthentication
    let dpop: DPoPRequests
    let metrics: ServerMetrics
    let rateLimits: RequestRateLimits?
    let challenges: ChallengeGate?
    let trustedProxies: TrustedProxies
    let staticDocuments: StaticDocuments?
    let logger: Logger
    /// The deployment's master key, from which the admin console derives its sign-in MACs.
    let masterKey: SymmetricKey
    /// The origin of the port that asks for client certificates (RFC 8705 §5), when separate.
    var mutualTLSOrigin: String? = nil

    /// The front of `provider`, with its parts built from the core's and the server's settings.
    init(
        provider: Provider, renderer: PageRenderer, localizer: any Localizer, masterKey: SymmetricKey,
        metrics: ServerMetrics, rateLimits: RequestRateLimits?, challenges: ChallengeGate?, trustedProxies: TrustedProxies,
        staticDocuments: StaticDocuments?, logger: Logger, mutualTLS: MutualTLSClientAuthentication? = nil
    ) {
        // RFC 8705: certificates are read only when mutual TLS is on.
        let certificates = mutualTLS.map { _ in ClientCertificateSource(proxies: trustedProxies) }
        let cookies = BrowserCookies(issuer: provider.settings.issuer)
        pages = HostedPages(
            renderer: renderer, localizer: localizer, cookies: cookies,
            csrf: CSRFProtection(masterKey: masterKey, cookies: cookies), logger: logger)
        self.masterKey = masterKey
        dpop = DPoPRequests(check: provider.dpopProofs, issuer: provider.issuer, algorithms: provider.settings.dpop.algorithms)
        clientAuthenticator = ClientAuthenticator(
            store: provider.store, verifier: provider.credentials, rateLimits: rateLimits, assertions: provider.clientAssertions,
            mutualTLS: mutualTLS, certificates: certificates)
        bearer = BearerAuthentication(
            verifier: provider.accessTokens, store: provider.store, dpop: dpop, certificates: certificates)
        self.metrics = metrics
        self.rateLimits = rateLimits
        self.challenges = challenges
        self.trustedProxies = trustedProxies
        self.staticDocuments = staticDocuments
        self.logger = logger
    }
}

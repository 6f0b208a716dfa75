import Hummingbird
import Logging

/// The OAuth 2.0 and OpenID Connect endpoints a client calls directly: discovery (OIDC
/// Discovery §4, RFC 8414 §3), the JWKS, `/token` (RFC 6749 §3.2), revocation (RFC 7009),
/// introspection (RFC 7662) and UserInfo (OIDC Core §5.3).
struct ProtocolRoutes: FeatureRoutes {
    let discovery: DiscoveryEndpoint
    let jwks: JWKSEndpoint
    let token: TokenEndpoint
    let revocation: RevocationEndpoint
    let introspection: IntrospectionEndpoint
    let userInfo: UserInfoEndpoint
    let pushedRequests: PushedAuthorizationEndpoint
    /// `nil` while registration is off: `/register` is then not routed at all.
    let registration: ClientRegistrationEndpoint?

    init(
        provider: Provider, clientAuthenticator: ClientAuthenticator, bearer: BearerAuthentication, dpop: DPoPRequests,
        metrics: ServerMetrics, rateLimits: RequestRateLimits?, staticDocuments: StaticDocuments?, proxies: TrustedProxies,
        logger: Logger, mutualTLSOrigin: String? = nil
    ) throws {
        discovery = try DiscoveryEndpoint(
            issuer: provider.issuer, requirePushedRequests: provider.settings.requirePushedRequests,
            dpopAlgorithms: provider.settings.dpop.algorithms, mutualTLS: clientAuthenticator.mutualTLS != nil,
            mutualTLSOrigin: mutualTLSOrigin, registration: provider.settings.registration.mode != .off)
        // The discovery documents are the same for every request: answered on the event loop.
        staticDocuments?.publish(
            discovery.staticDocuments(https: provider.settings.issuer.scheme?.lowercased() == "https"),
            accounting: StaticDocuments.Accounting(
                log: RequestLog(logger),
                recordRequest: { route, status, duration in
                    metrics.request(route: route, method: "GET", status: status, duration: duration)
                },
                admit: rateLimits.map(Self.discoveryAdmission),
                proxies: proxies))
        jwks = JWKSEndpoint(keyRing: provider.keyRing)
        token = TokenEndpoint(
            clientAuthenticator: clientAuthenticator, grants: provider.grants, metrics: metrics, dpop: dpop,
            registrations: provider.settings.registration.mode == .off ? nil : provider.registrations)
        revocation = RevocationEndpoint(
            clientAuthenticator: clientAuthenticator, accessTokenVerifier: provider.accessTokens, store: provider.store,
            now: provider.now, audit: provider.audit, deviceSessions: provider.deviceSessions)
        introspection = IntrospectionEndpoint(
            clientAuthenticator: clientAuthenticator, accessTokenVerifier: provider.accessTokens, store: provider.store,
            issuer: provider.issuer, now: provider.now)
        userInfo = UserInfoEndpoint(bearer: bearer)
        pushedRequests = PushedAuthorizationEndpoint(
            clientAuthenticator: clientAuthenticator, requests: provider.pushedRequests, dpop: dpop)
        registration =
            provider.settings.registration.mode == .off ? nil : ClientRegistrationEndpoint(registrations: provider.registrations)
    }

    /// The discovery class's per-address limit, decided in memory for ``StaticDocumentResponder``.
    private static func discoveryAdmission(_ limits: RequestRateLimits) -> @Sendable (String?) -> HTTPFields? {
        { address in limits.admitAddressInMemory(.discovery, address: address) }
    }

    func register(on router: Router<SesameRequestContext>) {
        for path in DiscoveryEndpoint.paths { router.get(RouterPath(path), use: discovery.handle) }
        router.get("/jwks", use: jwks.handle)
        router.post("/token", use: token.post)
        router.post("/par", use: pushedRequests.post)
        router.post("/revoke", use: revocation.post)
        router.post("/introspect", use: introspection.post)
        router.get("/userinfo", use: userInfo.handle)
        router.post("/userinfo", use: userInfo.handle)
        if let registration {
            router.post("/register", use: registration.register)
            router.get("/register/{client_id}", use: registration.read)
            router.put("/register/{client_id}", use: registration.update)
            router.delete("/register/{client_id}", use: registration.delete)
        }
    }
}

import Hummingbird

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

    init(services: ServerServices) throws {
        discovery = try DiscoveryEndpoint(
            issuer: services.issuerIdentifier, requirePushedRequests: services.requirePushedRequests,
            dpopAlgorithms: services.dpopAlgorithms)
        // The discovery documents are the same for every request: answered on the event loop.
        let metrics = services.metrics
        let limits = services.rateLimits
        services.staticDocuments?.publish(
            discovery.staticDocuments(https: services.issuer.scheme?.lowercased() == "https"),
            accounting: StaticDocuments.Accounting(
                logger: services.logger,
                recordRequest: { route, status, duration in
                    metrics.request(route: route, method: "GET", status: status, duration: duration)
                },
                admit: limits.map(Self.discoveryAdmission),
                proxies: services.trustedProxies))
        jwks = JWKSEndpoint(keyRing: services.keyRing)
        token = TokenEndpoint(services: services)
        revocation = RevocationEndpoint(
            clientAuthenticator: services.clientAuthenticator, accessTokenVerifier: services.accessTokenVerifier,
            store: services.store, now: services.now, audit: services.audit, deviceSessions: services.deviceSessions)
        introspection = IntrospectionEndpoint(
            clientAuthenticator: services.clientAuthenticator, accessTokenVerifier: services.accessTokenVerifier,
            store: services.store, issuer: services.issuerIdentifier, now: services.now)
        userInfo = UserInfoEndpoint(bearer: services.bearerAuthentication)
        pushedRequests = PushedAuthorizationEndpoint(
            clientAuthenticator: services.clientAuthenticator, requests: services.pushedRequests, dpop: services.dpop)
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
    }
}

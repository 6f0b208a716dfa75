import Hummingbird
import Logging

/// Maps every path of the server to its endpoint. Middleware order: the request log line
/// outermost, then the headers every response carries (``ResponseSecurityHeadersMiddleware``),
/// then the request metrics (when on), then the client address behind trusted
/// proxies, then API errors to JSON, then a hosted page's rate limit or outage as HTML, then the
/// per-address rate limits, then 405 for a known path asked with another method.
enum SesameRouter {
    static func build(_ services: ServerServices, metricsToken: String? = nil) throws -> Router<SesameRequestContext> {
        // HEAD wherever GET is (RFC 9110 §9.3.2): the GET's status and headers, no body.
        let router = Router(context: SesameRequestContext.self, options: .autoGenerateHeadEndpoints)
        router.add(middleware: RequestLogMiddleware(logger: services.logger))
        router.add(middleware: ResponseSecurityHeadersMiddleware(issuer: services.issuer))
        if services.metrics.registry != nil { router.add(middleware: MetricsMiddleware(metrics: services.metrics)) }
        router.add(middleware: ForwardedClientMiddleware(proxies: services.trustedProxies))
        router.add(middleware: APIErrorMiddleware(localizer: services.localizer, logger: services.logger))
        router.add(middleware: HostedPageErrorMiddleware(pages: services.pages, logger: services.logger))
        if let rateLimits = services.rateLimits { router.add(middleware: RateLimitMiddleware(limits: rateLimits)) }
        let routeMethods = RouteMethods()
        router.add(middleware: MethodNotAllowedMiddleware(routes: routeMethods))

        let pages = services.pages
        router.get(RouterPath(HostedPageRoutes.home)) { request, _ in
            pages.home(locales: LocalePreference.from(request: request))
        }
        let discovery = try DiscoveryEndpoint(issuer: services.issuerIdentifier)
        router.get("/.well-known/openid-configuration", use: discovery.handle)
        router.get("/.well-known/oauth-authorization-server", use: discovery.handle)
        router.get("/jwks", use: JWKSEndpoint(keyRing: services.keyRing).handle)
        let health = HealthEndpoint(store: services.store)
        router.get("/health", use: health.live)
        router.get("/health/live", use: health.live)
        router.get("/health/ready", use: health.ready)
        if let metricsToken {
            router.get("/metrics", use: MetricsEndpoint(metrics: services.metrics, token: metricsToken).handle)
        }

        let authorization = AuthorizationEndpoint(services: services)
        router.get("/authorize", use: authorization.get)
        router.post("/authorize", use: authorization.post)
        router.post("/login", use: LoginEndpoint(services: services).post)
        let hostedPasskeys = HostedPasskeyEndpoint(services: services)
        router.post("/login/passkey", use: hostedPasskeys.signInOptions)
        router.get("/account/passkeys", use: hostedPasskeys.accountPage)
        router.post("/account/passkeys", use: hostedPasskeys.register)
        router.post("/account/passkeys/options", use: hostedPasskeys.accountOptions)
        router.get(RouterPath(PasskeyScripts.path), use: PasskeyScripts.serve)
        let broker = FederationBrokerEndpoint(services: services, upstream: services.federationClients.endpoints)
        router.get("/federation/start", use: broker.start)
        router.get(RouterPath(FederationBrokerEndpoint.callbackPath), use: broker.callback)
        router.get(RouterPath(ChallengeScripts.pagePath), use: ChallengeScripts.page)
        router.get(RouterPath(ChallengeScripts.workerPath), use: ChallengeScripts.worker)

        router.post("/token", use: TokenEndpoint(services: services).post)
        router.post(
            "/revoke",
            use: RevocationEndpoint(
                clientAuthenticator: services.clientAuthenticator, accessTokenVerifier: services.accessTokenVerifier,
                store: services.store, now: services.now, audit: services.audit,
                deviceSessions: services.deviceSessions
            ).post)
        router.post(
            "/introspect",
            use: IntrospectionEndpoint(
                clientAuthenticator: services.clientAuthenticator, accessTokenVerifier: services.accessTokenVerifier,
                store: services.store, issuer: services.issuerIdentifier, now: services.now
            ).post)

        let userInfo = UserInfoEndpoint(bearer: services.bearerAuthentication)
        router.get("/userinfo", use: userInfo.handle)
        router.post("/userinfo", use: userInfo.handle)

        let endSession = EndSessionEndpoint(services: services)
        router.get("/logout", use: endSession.get)
        router.post("/logout", use: endSession.post)

        FirstPartyRoutes.register(on: router, services: services)
        AccountRoutes.register(on: router, services: services)
        PINRoutes.register(on: router, services: services)
        router.get("/api/openapi.json", use: OpenAPIEndpoint(issuer: services.issuerIdentifier).handle)

        let signUp = SignUpPage(services: services)
        router.get("/signup", use: signUp.get)
        router.post("/signup", use: signUp.post)
        let verification = EmailVerificationPage(services: services)
        router.get("/verify-email", use: verification.get)
        router.post("/verify-email", use: verification.post)
        let reset = PasswordResetPage(services: services)
        router.get("/password-reset", use: reset.get)
        router.post("/password-reset", use: reset.post)
        router.post("/password-reset/confirm", use: reset.confirm)
        routeMethods.load(router.routes.map { (path: $0.path.description, method: $0.method) })
        return router
    }
}

import Hummingbird
import Logging

/// The composition root of the HTTP server: maps every path to its endpoint, each feature built
/// once with exactly the parts it uses (hummingbird-examples' `buildRouter`). Middleware order:
/// the request log line outermost, then the headers every response carries
/// (``ResponseSecurityHeadersMiddleware``), then the request metrics (when on), then the client
/// address behind trusted proxies, then API errors to JSON, then a hosted page's rate limit or
/// outage as HTML, then the per-address rate limits, then 405 for a known path asked with
/// another method. Then each feature's routes (``FeatureRoutes``).
enum SesameRouter {
    static func build(
        _ provider: Provider, front: ServerFront, metricsToken: String? = nil
    ) throws -> Router<SesameRequestContext> {
        // HEAD wherever GET is (RFC 9110 §9.3.2): the GET's status and headers, no body.
        let router = Router(context: SesameRequestContext.self, options: .autoGenerateHeadEndpoints)
        router.add(middleware: RequestLogMiddleware(logger: front.logger))
        router.add(middleware: ResponseSecurityHeadersMiddleware(issuer: provider.settings.issuer))
        if front.metrics.registry != nil { router.add(middleware: MetricsMiddleware(metrics: front.metrics)) }
        router.add(middleware: ForwardedClientMiddleware(proxies: front.trustedProxies))
        router.add(middleware: APIErrorMiddleware(localizer: front.pages.localizer, logger: front.logger))
        router.add(middleware: HostedPageErrorMiddleware(pages: front.pages.renderer, logger: front.logger))
        if let rateLimits = front.rateLimits { router.add(middleware: RateLimitMiddleware(limits: rateLimits)) }
        let routeMethods = RouteMethods()
        router.add(middleware: MethodNotAllowedMiddleware(routes: routeMethods))

        for feature in try features(provider, front: front, metricsToken: metricsToken) { feature.register(on: router) }
        routeMethods.load(router.routes.map { (path: $0.path.description, method: $0.method) })
        return router
    }

    /// Every feature, built once; the hosted sign-in's parts are shared by the features that
    /// end a sign-in (the account pages, "Continue with …").
    static func features(_ provider: Provider, front: ServerFront, metricsToken: String?) throws -> [any FeatureRoutes] {
        let pages = front.pages
        let responder = AuthorizationResponder(provider: provider, pages: pages)
        let mfaStep = HostedMFAStep(provider: provider, pages: pages)
        let completion = SignInCompletion(
            provider: provider, pages: pages, responder: responder, mfaStep: mfaStep, metrics: front.metrics)
        let hostedPasskeys = HostedPasskeyEndpoint(provider: provider, pages: pages)
        return [
            OperationsRoutes(
                health: HealthEndpoint(store: provider.store),
                metrics: metricsToken.map { MetricsEndpoint(metrics: front.metrics, token: $0) }),
            try ProtocolRoutes(
                provider: provider, clientAuthenticator: front.clientAuthenticator, bearer: front.bearer, dpop: front.dpop,
                metrics: front.metrics, rateLimits: front.rateLimits, staticDocuments: front.staticDocuments,
                proxies: front.trustedProxies, logger: front.logger, mutualTLSOrigin: front.mutualTLSOrigin),
            BrowserSignInRoutes(
                pages: pages.renderer,
                authorization: AuthorizationEndpoint(
                    provider: provider, pages: pages, responder: responder, mfaStep: mfaStep, challenges: front.challenges),
                login: LoginEndpoint(
                    provider: provider, pages: pages, responder: responder, mfaStep: mfaStep, completion: completion,
                    passkeys: hostedPasskeys, challenges: front.challenges, metrics: front.metrics),
                endSession: EndSessionEndpoint(provider: provider, pages: pages, responder: responder)),
            AccountPageRoutes(
                pages: HostedAccountPages(provider: provider, pages: pages, challenges: front.challenges), provider: provider,
                completion: completion),
            FirstPartyRoutes(
                provider: provider, bearer: front.bearer, clientAuthenticator: front.clientAuthenticator,
                challenges: front.challenges, metrics: front.metrics),
            AccountRoutes(provider: provider, bearer: front.bearer, challenges: front.challenges),
            PasskeyRoutes(
                hosted: hostedPasskeys, api: PasskeysEndpoint(provider: provider, bearer: front.bearer),
                association: AppAssociationEndpoint(provider.settings.passkeys.apps)),
            FederationRoutes(
                broker: FederationBrokerEndpoint(core: provider, pages: pages, responder: responder, completion: completion),
                identities: IdentitiesEndpoint(provider: provider, bearer: front.bearer)),
            PINRoutes(endpoints: PINEndpoints(provider: provider, bearer: front.bearer)),
            adminRoutes(provider, front: front),
            try adminConsole(provider, front: front),
            DeviceAuthorizationRoutes(provider: provider, pages: pages, clientAuthenticator: front.clientAuthenticator),
            OpenAPIRoutes(
                endpoint: OpenAPIEndpoint(issuer: provider.issuer, registration: provider.settings.registration.mode != .off)),
        ]
    }

    /// The admin API's routes (issue #47), each endpoint with the core service it calls.
    static func adminRoutes(_ provider: Provider, front: ServerFront) -> AdminRoutes {
        let authentication = AdminAuthentication(bearer: front.bearer, provider: provider)
        return AdminRoutes(
            users: AdminUsersEndpoint(authentication: authentication, users: provider.users),
            clients: AdminClientsEndpoint(authentication: authentication, clients: provider.clients, keys: provider.signingKeys),
            audit: AdminAuditEndpoint(authentication: authentication, keys: provider.signingKeys, overview: provider.overview),
            providers: AdminProvidersEndpoint(authentication: authentication, providers: provider.providers),
            apis: AdminAPIsEndpoint(authentication: authentication, apis: provider.apis),
            credentials: AdminUserCredentialsEndpoint(authentication: authentication, users: provider.users),
            provisioning: AdminUserProvisioningEndpoint(authentication: authentication, provisioning: provider.provisioning),
            bootstrap: AdminBootstrapEndpoint(authentication: authentication, bootstrap: provider.bootstrap))
    }

    /// The admin console's pages (issue #47) over the same core services as the admin API.
    static func adminConsole(_ provider: Provider, front: ServerFront) throws -> AdminConsoleRoutes {
        let session = ConsoleSession(
            provider: provider, authentication: AdminAuthentication(bearer: front.bearer, provider: provider),
            masterKey: front.masterKey, cookies: front.pages.cookies)
        let page = ConsolePage(session: session, renderer: try ConsoleRenderer(), pages: front.pages)
        return AdminConsoleRoutes(
            session: session, page: page, users: ConsoleUserPages(page: page, users: provider.users),
            clients: ConsoleClientPages(page: page, clients: provider.clients, keys: provider.signingKeys),
            audit: ConsoleAuditPages(page: page, overview: provider.overview, keys: provider.signingKeys),
            bootstrap: ConsoleBootstrapPage(page: page, bootstrap: provider.bootstrap),
            providers: ConsoleProviderPages(page: page, providers: provider.providers))
    }
}

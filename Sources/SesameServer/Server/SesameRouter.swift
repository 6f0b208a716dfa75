import Hummingbird
import Logging

/// Maps every path of the server to its endpoint. Middleware order: the request log line
/// outermost, then the headers every response carries (``ResponseSecurityHeadersMiddleware``),
/// then the request metrics (when on), then the client address behind trusted
/// proxies, then API errors to JSON, then a hosted page's rate limit or outage as HTML, then the
/// per-address rate limits, then 405 for a known path asked with another method. Then each
/// feature's routes (``FeatureRoutes``), each built with the parts it uses.
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

        let accounts = AccountServices(services)
        let features: [any FeatureRoutes] = [
            OperationsRoutes(
                health: HealthEndpoint(store: services.store),
                metrics: metricsToken.map { MetricsEndpoint(metrics: services.metrics, token: $0) }),
            try ProtocolRoutes(services: services),
            BrowserSignInRoutes(services: services),
            AccountPageRoutes(services: services),
            FirstPartyRoutes(services: FirstPartyServices(services)),
            AccountRoutes(services: accounts),
            PasskeyRoutes(
                hosted: HostedPasskeyEndpoint(services: services), api: PasskeysEndpoint(services: accounts),
                association: AppAssociationEndpoint(services.passkeyPolicy.apps)),
            FederationRoutes(
                broker: FederationBrokerEndpoint(services: services, upstream: services.federationClients.endpoints),
                identities: IdentitiesEndpoint(services: accounts)),
            PINRoutes(endpoints: PINEndpoints(services: PINServices(services))),
            DeviceAuthorizationRoutes(services: services),
            OpenAPIRoutes(endpoint: OpenAPIEndpoint(issuer: services.issuerIdentifier)),
        ]
        for feature in features { feature.register(on: router) }
        routeMethods.load(router.routes.map { (path: $0.path.description, method: $0.method) })
        return router
    }
}

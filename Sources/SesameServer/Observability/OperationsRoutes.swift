import Hummingbird

/// What operators and their load balancers call: the health checks (``HealthEndpoint``) and,
/// when exposed on the main port, `/metrics` behind its bearer token (``MetricsEndpoint``).
struct OperationsRoutes: FeatureRoutes {
    let health: HealthEndpoint
    let metrics: MetricsEndpoint?

    func register(on router: Router<SesameRequestContext>) {
        router.get("/health", use: health.live)
        router.get("/health/live", use: health.live)
        router.get("/health/ready", use: health.ready)
        if let metrics { router.get("/metrics", use: metrics.handle) }
    }
}

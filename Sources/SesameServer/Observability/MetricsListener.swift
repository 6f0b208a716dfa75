import Hummingbird
import HummingbirdCore
import Logging
import ServiceLifecycle

/// The separate metrics port (``MetricsExposure/port(_:)``): a second HTTP listener on the
/// server's host that serves `GET /metrics` and nothing else, without a token, for a
/// Prometheus scraper on the operator's private network.
enum MetricsListener {
    static func application(
        metrics: ServerMetrics, host: String, port: Int, bound: AsyncStream<Int>.Continuation, logger: Logger
    ) -> some Service {
        let router = Router()
        router.get("/metrics", use: MetricsEndpoint(metrics: metrics, token: nil).handle)
        return Application(
            router: router,
            configuration: ApplicationConfiguration(address: .hostname(host, port: port), serverName: StaticDocuments.serverField),
            onServerRunning: { channel in
                bound.yield(channel.localAddress?.port ?? port)
                bound.finish()
            },
            logger: logger)
    }
}

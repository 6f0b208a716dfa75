import Foundation
import Metrics
import Prometheus

/// The server's metrics, recorded through swift-metrics into a Prometheus registry of this
/// server's own (not the process-global `MetricsSystem`, so several servers in one process —
/// the tests — keep apart), and served by ``MetricsEndpoint`` in the Prometheus text format
/// (exposition format 0.0.4).
///
/// Names (units in the name, as Prometheus asks):
/// - `sesame_http_requests_total{route,method,status}` and
///   `sesame_http_request_duration_seconds{route,method}`: every request, by route pattern
///   (`/api/account/devices/:id`, never the raw path, so the label set stays bounded) and status.
/// - `sesame_tokens_issued_total{grant_type}`: token responses by grant.
/// - `sesame_sign_ins_total{outcome}`: password steps of sign-in (`success`, `wrong_password`,
///   `locked`) and `mfa_required` when a second factor is then asked for.
/// - `sesame_refresh_token_reuse_total`: replayed refresh tokens (the family was revoked).
/// - `sesame_store_*`: statement latency and statements in flight by backend, PostgreSQL pool
///   connections in use and the wait for one (``StoreMetrics`` in SesameStore).
public final class ServerMetrics: Sendable {
    /// Where the metrics go; `NOOPMetricsHandler` when metrics are off.
    public let factory: any MetricsFactory
    /// The registry ``MetricsEndpoint`` prints; `nil` when metrics are off.
    let registry: PrometheusCollectorRegistry?

    /// Metrics into a new Prometheus registry.
    public static func prometheus() -> ServerMetrics {
        let registry = PrometheusCollectorRegistry()
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.defaultDurationHistogramBuckets = latencyBuckets
        return ServerMetrics(factory: factory, registry: registry)
    }

    /// No metrics: every record returns at once (no handle is made, even a no-op one).
    public static let off = ServerMetrics(factory: NOOPMetricsHandler.instance, registry: nil)

    /// Request and statement latencies from 1 ms to 10 s.
    static let latencyBuckets: [Duration] = [1, 2.5, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10000]
        .map { Duration.microseconds(Int64($0 * 1000)) }

    private init(factory: any MetricsFactory, registry: PrometheusCollectorRegistry?) {
        self.factory = factory
        self.registry = registry
    }

    /// The registry in the Prometheus text format.
    func exposition() -> String { registry?.emitToString() ?? "" }

    /// One answered request.
    func request(route: String, method: String, status: Int, duration: Duration) {
        guard registry != nil else { return }
        Counter(
            label: "sesame_http_requests_total",
            dimensions: [("route", route), ("method", method), ("status", String(status))], factory: factory
        ).increment()
        Metrics.Timer(
            label: "sesame_http_request_duration_seconds", dimensions: [("route", route), ("method", method)],
            factory: factory
        ).record(duration: duration)
    }

    /// A token response of grant `grantType` (RFC 6749 `grant_type` value).
    func tokenIssued(grantType: String) {
        guard registry != nil else { return }
        Counter(label: "sesame_tokens_issued_total", dimensions: [("grant_type", grantType)], factory: factory)
            .increment()
    }

    /// How a sign-in's password step (or its MFA demand) ended.
    enum SignInOutcome: String, Sendable {
        case success
        case wrongPassword = "wrong_password"
        case locked
        case disabled
        case mfaRequired = "mfa_required"
    }

    func signIn(_ outcome: SignInOutcome) {
        guard registry != nil else { return }
        Counter(label: "sesame_sign_ins_total", dimensions: [("outcome", outcome.rawValue)], factory: factory)
            .increment()
    }

    /// The sign-in outcome of a password check.
    func signIn(_ check: CredentialVerifier.PasswordCheck) {
        switch check {
        case .accepted: signIn(.success)
        case .rejected: signIn(.wrongPassword)
        case .throttled: signIn(.locked)
        case .disabled: signIn(.disabled)
        }
    }

    /// A refresh token presented again after its rotation (RFC 9700 §4.14.2): its family was revoked.
    package func refreshTokenReuse() {
        guard registry != nil else { return }
        Counter(label: "sesame_refresh_token_reuse_total", factory: factory).increment()
    }
}

extension ServerMetrics: ProviderMetrics {}

import Logging
import Metrics
import NIOCore
import SQLKit

/// The store's metrics (swift-metrics; the server gives a Prometheus factory, the default is
/// a no-op): statement latency and statements in flight by backend, and for PostgreSQL the pool's
/// connections in use and the wait for one.
public struct StoreMetrics: Sendable {
    let factory: any MetricsFactory
    let backend: String
    /// The metric handles, made once for a store by ``labelled(_:)`` (so a statement records
    /// into them without a registry lookup); `nil` before that, and when metrics are off.
    let handles: Handles?

    struct Handles: Sendable {
        let statementDuration: Metrics.Timer
        let statementsInFlight: Meter
        let connectionsInUse: Meter
        let connectionWait: Metrics.Timer
    }

    /// Metrics into `factory`, labelled `backend="sqlite"` or `"postgres"` when the store opens.
    public init(factory: any MetricsFactory) {
        self.init(factory: factory, backend: "", handles: nil)
    }

    private init(factory: any MetricsFactory, backend: String, handles: Handles?) {
        self.factory = factory
        self.backend = backend
        self.handles = handles
    }

    /// No metrics.
    public static let off = StoreMetrics(factory: NOOPMetricsHandler.instance)

    /// Whether nothing is recorded (the no-op factory).
    var isOff: Bool { factory is NOOPMetricsHandler }

    /// The metrics of one store on `backend`, with their handles (none when off).
    func labelled(_ backend: String) -> StoreMetrics {
        guard !isOff else { return StoreMetrics(factory: factory, backend: backend, handles: nil) }
        let dimensions = [("backend", backend)]
        return StoreMetrics(
            factory: factory, backend: backend,
            handles: Handles(
                statementDuration: Metrics.Timer(
                    label: "sesame_store_statement_duration_seconds", dimensions: dimensions, factory: factory),
                statementsInFlight: Meter(label: "sesame_store_statements_in_flight", dimensions: dimensions, factory: factory),
                connectionsInUse: Meter(label: "sesame_store_pool_connections_in_use", dimensions: dimensions, factory: factory),
                connectionWait: Metrics.Timer(label: "sesame_store_pool_wait_seconds", dimensions: dimensions, factory: factory)))
    }
}

/// A SQLKit database that times every statement into ``StoreMetrics`` and counts those in
/// flight; everything else (dialect, sessions, logging) is the wrapped database's.
struct MeasuredDatabase: WrappingSQLDatabase {
    let base: any SQLDatabase
    let metrics: StoreMetrics.Handles

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) async throws {
        metrics.statementsInFlight.increment()
        let start = ContinuousClock.now
        defer {
            metrics.statementDuration.record(duration: ContinuousClock.now - start)
            metrics.statementsInFlight.decrement()
        }
        try await base.execute(sql: query, onRow)
    }

    func withSession<R>(_ closure: @escaping @Sendable (any SQLDatabase) async throws -> R) async throws -> R {
        let metrics = metrics
        return try await base.withSession { session in
            try await closure(MeasuredDatabase(base: session, metrics: metrics))
        }
    }
}

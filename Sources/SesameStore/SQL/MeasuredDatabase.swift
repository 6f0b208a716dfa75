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

    /// Metrics into `factory`, labelled `backend="sqlite"` or `"postgres"` when the store opens.
    public init(factory: any MetricsFactory) {
        self.init(factory: factory, backend: "")
    }

    init(factory: any MetricsFactory, backend: String) {
        self.factory = factory
        self.backend = backend
    }

    /// No metrics.
    public static let off = StoreMetrics(factory: NOOPMetricsHandler.instance)

    func labelled(_ backend: String) -> StoreMetrics { StoreMetrics(factory: factory, backend: backend) }

    var statementDuration: Metrics.Timer {
        Metrics.Timer(label: "sesame_store_statement_duration_seconds", dimensions: [("backend", backend)], factory: factory)
    }
    var statementsInFlight: Meter {
        Meter(label: "sesame_store_statements_in_flight", dimensions: [("backend", backend)], factory: factory)
    }
    var connectionsInUse: Meter {
        Meter(label: "sesame_store_pool_connections_in_use", dimensions: [("backend", backend)], factory: factory)
    }
    var connectionWait: Metrics.Timer {
        Metrics.Timer(label: "sesame_store_pool_wait_seconds", dimensions: [("backend", backend)], factory: factory)
    }
}

/// A SQLKit database that times every statement into ``StoreMetrics`` and counts those in
/// flight; everything else (dialect, sessions, logging) is the wrapped database's.
struct MeasuredDatabase: SQLDatabase {
    let base: any SQLDatabase
    let metrics: StoreMetrics

    var logger: Logger { base.logger }
    var eventLoop: any EventLoop { base.eventLoop }
    var version: (any SQLDatabaseReportedVersion)? { base.version }
    var dialect: any SQLDialect { base.dialect }
    var queryLogLevel: Logger.Level? { base.queryLogLevel }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) -> EventLoopFuture<Void> {
        nonisolated(unsafe) let query = query
        return eventLoop.makeFutureWithTask { try await self.execute(sql: query, onRow) }
    }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) async throws {
        let inFlight = metrics.statementsInFlight
        inFlight.increment()
        let start = ContinuousClock.now
        defer {
            metrics.statementDuration.record(duration: ContinuousClock.now - start)
            inFlight.decrement()
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

import SesameStore
import ServiceLifecycle

/// Runs `work` every ``interval`` while the server runs (a service of its group; it stops with
/// the server), and once more at shutdown when ``runsAtShutdown`` (to write what is buffered).
/// The rate limiters' sharing (``RateLimiter/synchronize(batch:)``) and the audit log's writer
/// (``AuditLog/flush()``) are such services.
package struct PeriodicService: Service {
    package let interval: Duration
    package var runsAtShutdown = false
    package let work: @Sendable () async -> Void

    package init(interval: Duration, runsAtShutdown: Bool = false, work: @escaping @Sendable () async -> Void) {
        self.interval = interval
        self.runsAtShutdown = runsAtShutdown
        self.work = work
    }

    package func run() async {
        while !Task.isCancelled && !Task.isShuttingDownGracefully {
            do {
                try await cancelWhenGracefulShutdown { try await Task.sleep(for: interval) }
            } catch {
                break  // graceful shutdown or cancellation
            }
            await work()
        }
        if runsAtShutdown { await work() }
    }
}

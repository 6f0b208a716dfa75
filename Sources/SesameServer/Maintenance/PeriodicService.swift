import ServiceLifecycle

/// Runs `work` every ``interval`` while the server runs (a service of its group; it stops with
/// the server), and once more at shutdown when ``runsAtShutdown`` (to write what is buffered).
/// The rate limiters' sharing (``RateLimiter/synchronize(batch:)``) and the audit log's writer
/// (``AuditLog/flush()``) are such services.
struct PeriodicService: Service {
    let interval: Duration
    var runsAtShutdown = false
    let work: @Sendable () async -> Void

    func run() async {
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

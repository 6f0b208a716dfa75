import SesameProtocol

/// The time a PostgreSQL statement may take, from asking the pool for a connection to its
/// last row: `lease` to get a connection, `statement` in all. Past either the statement's
/// caller gets ``StoreError/unavailable(reason:)`` (the request a 503) at once, and the
/// statement is cancelled and left to end on its own.
///
/// Why not a task group: a group returns only when every child has, so a statement that never
/// ends would hold its request, and the server's graceful shutdown, forever. The soak of issue
/// #50 saw that after a PostgreSQL restart: PostgresNIO (1.33) writes each query to its channel
/// with no write promise, so a query written to a connection that has just closed (before the
/// pool learns it) fails its write silently and is never answered.
///
/// Such a statement ends within ``closedCheck`` of its connection closing, not at the deadline:
/// the operation names its connection's state when it leases it (``Lease``), and while the
/// statement runs the timer looks at it every ``closedCheck``. A later soak with a restart every
/// minute found requests held the whole 120 s, and with them the server's graceful stop.
struct StatementDeadline: Sendable {
    /// How often a running statement's connection is checked for having closed.
    static let closedCheck: Duration = .seconds(1)

    /// The wait for a connection; `nil` when the caller holds one already (a session's
    /// statements: ``DeadlineSessionDatabase``).
    var lease: Duration?
    var statement: Duration

    /// What the operation calls once it has its connection: `closed` says whether that
    /// connection has closed since (PostgresNIO's `isClosed`), `nil` when nothing can tell.
    struct Lease: Sendable {
        fileprivate let mark: @Sendable ((@Sendable () -> Bool)?) -> Void
        func callAsFunction(closed: (@Sendable () -> Bool)? = nil) { mark(closed) }
    }

    /// Runs `operation`, which calls `leased` once it has its connection.
    func run(_ operation: @escaping @Sendable (_ leased: Lease) async throws -> Void) async throws {
        let state = LockedState(State())
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let work = Task {
                    let result: Result<Void, any Error>
                    do {
                        try await operation(
                            Lease { closed in
                                state.withLock {
                                    $0.leased = true
                                    $0.closed = closed
                                }
                            })
                        result = .success(())
                    } catch {
                        result = .failure(error)
                    }
                    Self.finish(state, continuation, with: result)
                }
                let lease = self.lease
                let total = self.statement
                let timer = Task {
                    let clock = ContinuousClock()
                    let start = clock.now
                    while true {
                        // Wakes at the lease time (while there is no connection), at the
                        // deadline, and every `closedCheck` in between.
                        let elapsed = clock.now - start
                        var nap = min(total - elapsed, Self.closedCheck)
                        if let lease, !state.withLock({ $0.leased }) { nap = min(nap, lease - elapsed) }
                        if nap > .zero { try await Task.sleep(for: nap) }
                        let now = clock.now - start
                        let (leased, closed) = state.withLock { ($0.leased, $0.closed) }
                        let failure: StoreError? =
                            if let lease, !leased, now >= lease {
                                .unavailable(
                                    reason: "no PostgreSQL connection within \(lease) (the server is down, unreachable or refusing connections)")
                            } else if leased, closed?() == true {
                                .unavailable(
                                    reason: "the PostgreSQL connection closed before the statement was answered (the server restarted or the network dropped it)")
                            } else if now >= total {
                                .unavailable(
                                    reason: "a PostgreSQL statement did not finish within \(total); the connection may have been lost")
                            } else {
                                nil
                            }
                        if let failure {
                            Self.finish(state, continuation, with: .failure(failure))
                            return
                        }
                    }
                }
                let (cancelled, finished) = state.withLock { state -> (Bool, Bool) in
                    state.work = work
                    state.timer = timer
                    return (state.cancelled, state.finished)
                }
                // The statement may have ended before its tasks were stored: no timer may outlive it.
                if finished { timer.cancel() }
                if cancelled { Self.finish(state, continuation, with: .failure(CancellationError())) }
            }
        } onCancel: {
            state.withLock { $0.cancelled = true }
            state.withLock { $0.work }?.cancel()
        }
    }

    private struct State {
        var leased = false
        /// Whether the leased connection has closed, once it is leased.
        var closed: (@Sendable () -> Bool)?
        var finished = false
        var cancelled = false
        var work: Task<Void, Never>?
        var timer: Task<Void, any Error>?
    }

    /// Resumes the caller once: the first of the statement, the timer and a cancellation wins;
    /// the other tasks are cancelled.
    private static func finish(
        _ state: LockedState<State>, _ continuation: CheckedContinuation<Void, any Error>, with result: Result<Void, any Error>
    ) {
        let tasks = state.withLock { state -> (Task<Void, Never>?, Task<Void, any Error>?)? in
            guard !state.finished else { return nil }
            state.finished = true
            return (state.work, state.timer)
        }
        guard let tasks else { return }
        tasks.1?.cancel()
        if case .failure = result { tasks.0?.cancel() }
        continuation.resume(with: result)
    }
}

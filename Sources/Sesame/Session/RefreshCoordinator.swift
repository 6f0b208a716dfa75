import Foundation
import SesameProtocol

/// Single-flight refresh (supabase-swift `SessionManager` pattern): per account at
/// most one refresh runs; every caller that needs one while it runs awaits the same `Task`.
///
/// A refresh has a purpose: the session's own access token (`nil`), or an API's (RFC 8707,
/// its identifier). Every purpose spends the same rotating refresh token, so they never run at
/// once: a caller finding another purpose's refresh waits for it, then runs its own.
///
/// A lock rather than an actor: joining a running refresh is one dictionary lookup, with no
/// actor hop, so thousands of waiters cost little more than their `await`.
final class RefreshCoordinator: Sendable {
    /// The new access token: all a waiter needs, and one retain to hand to each of them
    /// (a whole ``StoredSession`` per waiter showed up in the fan-in profile).
    typealias Outcome = Result<String, SesameError>

    private struct Running {
        var purpose: String?
        var task: Task<Outcome, Never>
        /// Which start this is: the task removes its own entry, and only its own.
        var generation: UInt64
    }

    private struct State {
        var running: [Account.ID: Running] = [:]
        var nextGeneration: UInt64 = 0
    }

    private let inFlight = LockedState(State())

    /// The refresh for `purpose` running for `id`, if any: joining it needs no operation
    /// closure, so a waiter allocates nothing before its `await`.
    func running(_ id: Account.ID, purpose: String? = nil) -> Task<Outcome, Never>? {
        inFlight.withLock { state in state.running[id].flatMap { $0.purpose == purpose ? $0.task : nil } }
    }

    /// Joins the refresh for `purpose` running for `id`, or starts `operation` as that refresh
    /// once no refresh of another purpose runs for `id`.
    ///
    /// A refresh removes its own entry before it ends, so a caller that waited for another
    /// purpose's refresh finds the way clear (or a newer refresh to wait for) when it wakes.
    func refresh(
        _ id: Account.ID, purpose: String? = nil, operation: @escaping @Sendable () async -> Outcome
    ) async -> Outcome {
        let inFlight = self.inFlight
        while true {
            let (task, joined) = inFlight.withLock { state -> (Task<Outcome, Never>, Bool) in
                if let current = state.running[id] { return (current.task, current.purpose == purpose) }
                let generation = state.nextGeneration
                state.nextGeneration &+= 1
                // The task takes the lock to remove its entry, so it cannot do so before the
                // entry is in place: this closure holds the lock until then.
                let task = Task {
                    let outcome = await operation()
                    inFlight.withLock { state in
                        if state.running[id]?.generation == generation { state.running[id] = nil }
                    }
                    return outcome
                }
                state.running[id] = Running(purpose: purpose, task: task, generation: generation)
                return (task, true)
            }
            let outcome = await task.value
            if joined { return outcome }
        }
    }

    /// Whether a refresh is running for `id` (diagnostics and tests).
    func isRefreshing(_ id: Account.ID) -> Bool { inFlight.withLock { $0.running[id] != nil } }
}

/// How transient refresh failures (network, HTTP 5xx) are retried before giving up; the
/// session is kept either way (a network error does not end it).
public struct RetryPolicy: Sendable {
    /// Pauses before the 2nd, 3rd, ... attempt, in seconds; attempts = `delays.count + 1`.
    public var delays: [TimeInterval]
    /// How to wait; tests pass one that returns at once.
    public var sleep: @Sendable (TimeInterval) async -> Void

    /// A policy of `delays.count` retries. The default tries up to four times within about two
    /// seconds; `sleep` defaults to ``pause(_:)``.
    public init(
        delays: [TimeInterval] = [0.2, 0.5, 1],
        sleep: @escaping @Sendable (TimeInterval) async -> Void = RetryPolicy.pause
    ) {
        self.delays = delays
        self.sleep = sleep
    }

    /// No retries.
    public static let none = RetryPolicy(delays: [])

    /// Sleeps `seconds` (clamped to 0...60, so a mistyped delay cannot trap or hang), or until
    /// the task is cancelled. `Task.sleep(nanoseconds:)` rather than a `Duration`, which needs
    /// iOS 16.
    @Sendable public static func pause(_ seconds: TimeInterval) async {
        let clamped = seconds.isFinite ? min(max(seconds, 0), 60) : 0
        try? await Task.sleep(nanoseconds: UInt64(clamped * 1_000_000_000))
    }

    /// Runs `operation`, retrying transient failures.
    func run<T: Sendable>(
        isolation: isolated (any Actor)? = #isolation,
        _ operation: () async throws(SesameError) -> T
    ) async throws(SesameError) -> T {
        var attempt = 0
        while true {
            do {
                return try await operation()
            } catch {
                guard error.isTransient, attempt < delays.count, !Task.isCancelled else { throw error }
                await sleep(delays[attempt])
                attempt += 1
            }
        }
    }
}

extension SesameError {
    /// Network failures and 5xx answers: worth retrying, never a reason to sign out.
    var isTransient: Bool {
        if case .technical(.network) = self.reason { return true }
        if case .technical(.server) = self.reason { return true }
        return false
    }
}

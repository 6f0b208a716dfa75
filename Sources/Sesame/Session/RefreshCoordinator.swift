import Foundation
import SesameProtocol

/// Single-flight refresh (supabase-swift `SessionManager` pattern): per account at
/// most one refresh runs; every caller that needs one while it runs awaits the same `Task`.
///
/// A lock rather than an actor: joining a running refresh is one dictionary lookup, with no
/// actor hop, so thousands of waiters cost little more than their `await`.
final class RefreshCoordinator: Sendable {
    /// The new access token: all a waiter needs, and one retain to hand to each of them
    /// (a whole ``StoredSession`` per waiter showed up in the fan-in profile).
    typealias Outcome = Result<String, SesameError>

    private let inFlight = LockedState<[Account.ID: Task<Outcome, Never>]>([:])

    /// The refresh running for `id`, if any: joining it needs no operation closure, so a
    /// waiter allocates nothing before its `await`.
    func running(_ id: Account.ID) -> Task<Outcome, Never>? {
        inFlight.withLock { $0[id] }
    }

    /// Joins the refresh running for `id`, or starts `operation` as that refresh.
    func refresh(_ id: Account.ID, operation: @escaping @Sendable () async -> Outcome) async -> Outcome {
        let (task, started) = inFlight.withLock { running -> (Task<Outcome, Never>, Bool) in
            if let task = running[id] { return (task, false) }
            let task = Task { await operation() }
            running[id] = task
            return (task, true)
        }
        let outcome = await task.value
        if started {
            inFlight.withLock { running in
                if running[id] == task { running[id] = nil }
            }
        }
        return outcome
    }

    /// Whether a refresh is running for `id` (diagnostics and tests).
    func isRefreshing(_ id: Account.ID) -> Bool { inFlight.withLock { $0[id] != nil } }
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

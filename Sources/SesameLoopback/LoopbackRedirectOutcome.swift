import Foundation
import Sesame
import SesameProtocol

/// The one result of a pending loopback authorization: the redirect URL, or why there is none
/// (cancelled, timed out, the browser could not be opened). The first result wins; later ones are
/// ignored, so a reload of the redirect page or a late timeout changes nothing.
final class LoopbackRedirectOutcome: Sendable {
    private enum State {
        case pending(waiter: CheckedContinuation<Result<URL, SesameError>, Never>?)
        case finished(Result<URL, SesameError>)
    }

    private let state = LockedState<State>(.pending(waiter: nil))

    /// Records `result` unless a result is already there; wakes the waiter. Returns whether this
    /// call decided the outcome.
    @discardableResult
    func finish(_ result: Result<URL, SesameError>) -> Bool {
        let decided: (Bool, CheckedContinuation<Result<URL, SesameError>, Never>?) = state.withLock { state in
            guard case .pending(let waiter) = state else { return (false, nil) }
            state = .finished(result)
            return (true, waiter)
        }
        decided.1?.resume(returning: result)
        return decided.0
    }

    /// Whether a result has been recorded.
    var isFinished: Bool {
        state.withLock { state in
            if case .finished = state { return true }
            return false
        }
    }

    /// Waits for the result. Cancelling the waiting task finishes with ``SesameError/cancelled``.
    /// Only one task may wait.
    func wait() async -> Result<URL, SesameError> {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let ready: Result<URL, SesameError>? = state.withLock { state in
                    switch state {
                    case .pending(let waiter):
                        precondition(waiter.map { _ in false } ?? true, "only one task may wait for a loopback redirect")
                        state = .pending(waiter: continuation)
                        return nil
                    case .finished(let result):
                        return result
                    }
                }
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            finish(.failure(.cancelled))
        }
    }
}

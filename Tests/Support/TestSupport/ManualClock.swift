import Foundation
import Synchronization

/// The one clock the tests move by hand instead of sleeping (the SDK's `SesameClock`, the
/// server's `ServerConfiguration.now` and the key ring take it).
///
/// Made with a date, it is frozen there: only ``set(_:)`` and ``advance(by:)`` move it. Made
/// without one, it follows real time plus what ``advance(by:)`` added, until ``freeze()``.
public final class ManualClock: Sendable {
    private struct State {
        var offset: TimeInterval = 0
        var frozenAt: Date?
    }

    private let state: Mutex<State>

    /// A clock frozen at `date`, or following real time when `date` is `nil`.
    public init(_ date: Date? = nil) {
        state = Mutex(State(frozenAt: date))
    }

    public func now() -> Date {
        state.withLock { ($0.frozenAt ?? Date()).addingTimeInterval($0.offset) }
    }

    /// Moves the time forward (or back, with a negative interval).
    public func advance(by seconds: TimeInterval) { state.withLock { $0.offset += seconds } }

    /// Sets the time (and freezes the clock there).
    public func set(_ date: Date) {
        state.withLock {
            $0.frozenAt = date
            $0.offset = 0
        }
    }

    /// Stops real time from moving the clock: from now on only ``advance(by:)`` and ``set(_:)``
    /// do, so durations the server reports (e.g. `Retry-After`) are exact on a loaded machine.
    public func freeze() {
        state.withLock {
            if $0.frozenAt == nil { $0.frozenAt = Date() }
        }
    }
}

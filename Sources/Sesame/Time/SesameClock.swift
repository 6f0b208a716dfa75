import Foundation
import Synchronization

/// The source of "now" for expiry and ID token time checks (OIDC Core §3.1.3.7 steps 9–10).
/// Injected so tests can set the time instead of sleeping (no fixed skew window, see STYLE.md).
public protocol SesameClock: Sendable {
    /// The current time.
    func now() -> Date
}

/// The device clock.
public struct SystemClock: SesameClock {
    public init() {}
    public func now() -> Date { Date() }
}

/// A clock that tests set and advance by hand.
public final class TestClock: SesameClock {
    private let current: Mutex<Date>

    /// A clock that reads `date` until it is changed.
    public init(_ date: Date = Date(timeIntervalSince1970: 1_700_000_000)) {
        current = Mutex(date)
    }

    public func now() -> Date { current.withLock { $0 } }

    /// Sets the time.
    public func set(_ date: Date) { current.withLock { $0 = date } }

    /// Moves the time forward (or back, with a negative interval).
    public func advance(by interval: TimeInterval) {
        current.withLock { $0 = $0.addingTimeInterval(interval) }
    }
}

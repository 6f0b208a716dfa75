import Foundation

/// The source of "now" for expiry and ID token time checks (OIDC Core §3.1.3.7 steps 9–10).
/// Injected so tests can set the time instead of sleeping (no fixed skew window, see STYLE.md).
public protocol SesameClock: Sendable {
    /// The current time.
    func now() -> Date
}

/// The device clock.
public struct SystemClock: SesameClock {
    /// The device clock; the default of ``SesameClient``.
    public init() {}
    /// `Date()`: the device's wall-clock time, as the user may have set it (see ``ServerClockOffset``).
    public func now() -> Date { Date() }
}

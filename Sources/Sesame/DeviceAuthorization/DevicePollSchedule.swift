import Foundation
import SesameProtocol

/// When the device polls the token endpoint (RFC 8628 §3.5) and when it gives up (§3.2
/// `expires_in`): the server's numbers, clamped so a wrong one can neither hammer the server
/// nor hang the device.
///
/// - `interval`: ``DeviceAuthorization/defaultInterval`` (5 s) when absent; below 1 s counts as
///   1 s, above 60 s as 60 s.
/// - `expires_in`: below 1 s counts as 1 s (the codes are as good as expired: the flow ends at the
///   first check), above one hour as one hour.
/// - `slow_down` adds ``DeviceAuthorization/slowDownIncrement`` (5 s) to the interval for this
///   and every later poll (§3.5); the expiry still bounds the whole flow.
/// - A poll that failed in transit (no answer, a timeout, a 5xx) is retried with exponential
///   backoff (§3.5 "SHOULD use exponential backoff"): the next wait doubles, up to 60 s, and the
///   interval returns once a poll is answered.
struct DevicePollSchedule: Sendable, Equatable {
    /// The shortest and longest interval the SDK accepts, in seconds.
    static let intervalBounds: ClosedRange<Int> = 1...60
    /// The shortest and longest lifetime of the codes the SDK accepts, in seconds.
    static let lifetimeBounds: ClosedRange<Int> = 1...3600

    /// Seconds between two polls (and between the codes and the first poll).
    private(set) var interval: TimeInterval
    /// When the codes expire: no poll is sent from then on.
    let expiresAt: Date
    /// The wait after polls that failed in transit; `nil` after an answered poll.
    private(set) var backoff: TimeInterval?

    /// The schedule of a device authorization response received at `now`.
    init(interval: Int?, expiresIn: Int, now: Date) {
        let interval = interval ?? DeviceAuthorization.defaultInterval
        self.interval = TimeInterval(Self.clamp(interval, to: Self.intervalBounds))
        expiresAt = now.addingTimeInterval(TimeInterval(Self.clamp(expiresIn, to: Self.lifetimeBounds)))
    }

    /// §3.5 `slow_down`: the interval grows by 5 seconds from now on.
    mutating func slowDown() {
        interval += TimeInterval(DeviceAuthorization.slowDownIncrement)
    }

    /// A poll failed in transit: the next wait is twice the last (twice the interval after the
    /// first failure), at most 60 s.
    mutating func backOff() {
        backoff = min((backoff ?? interval) * 2, TimeInterval(Self.intervalBounds.upperBound))
    }

    /// A poll was answered: back to the interval.
    mutating func answered() { backoff = nil }

    /// How long to wait before the next poll: the interval (or the backoff), or less when the
    /// codes expire sooner (the flow then ends at expiry without polling again); `nil` once they
    /// have expired.
    func wait(at now: Date) -> TimeInterval? {
        let remaining = expiresAt.timeIntervalSince(now)
        guard remaining > 0 else { return nil }
        return min(backoff ?? interval, remaining)
    }

    /// Whether the codes have expired at `now`.
    func hasExpired(at now: Date) -> Bool { now >= expiresAt }

    private static func clamp(_ value: Int, to bounds: ClosedRange<Int>) -> Int {
        min(max(value, bounds.lowerBound), bounds.upperBound)
    }
}

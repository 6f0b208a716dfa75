import Foundation
import SesameProtocol

/// The difference between the provider's clock and the device clock, learned from the HTTP
/// `Date` header (RFC 9110 §6.6.1) of token endpoint responses.
///
/// ID token `exp`/`iat` checks and refresh-ahead decisions use `clock.now() + offset`, so a
/// device whose clock is minutes off still validates fresh tokens. Offsets smaller than two
/// seconds are ignored (the header has one-second resolution).
public final class ServerClockOffset: Sendable {
    private let offset = LockedState<TimeInterval>(0)

    /// An offset of zero until the first response's `Date` header is learned.
    public init() {}

    /// The current estimate, in seconds (server minus device).
    public var seconds: TimeInterval { offset.withLock { $0 } }

    /// Learns from a response's `Date` header observed at device time `localNow`.
    public func learn(dateHeader: String?, localNow: Date) {
        guard let dateHeader, let serverDate = HTTPDate.parse(dateHeader) else { return }
        let measured = serverDate.timeIntervalSince(localNow)
        offset.withLock { $0 = abs(measured) < 2 ? 0 : measured }
    }

    /// `clock.now()` corrected by the learned offset.
    public func serverNow(_ clock: any SesameClock) -> Date {
        clock.now().addingTimeInterval(seconds)
    }
}

/// Parses the RFC 9110 §5.6.7 IMF-fixdate format, e.g. `Sun, 06 Nov 1994 08:49:37 GMT`.
/// Each field must be in its grammar's range (`day` 1–31, `year` four digits from 1970,
/// `hour` 0–23, `minute` 0–59, `second` 0–60): a header such as
/// `Sun, 06 Nov 9223372036854775807 08:49:37 GMT` is no date, not a number for the calendar to
/// overflow on.
enum HTTPDate {
    private static let months = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ]

    static func parse(_ text: String) -> Date? {
        let parts = text.split(separator: " ")
        guard parts.count == 6, parts[5] == "GMT",
            let day = Int(parts[1]),
            let monthIndex = months.firstIndex(of: String(parts[2])),
            let year = Int(parts[3])
        else { return nil }
        let time = parts[4].split(separator: ":").compactMap { Int($0) }
        guard time.count == 3, (1...31).contains(day), (1970...9999).contains(year), (0...23).contains(time[0]),
            (0...59).contains(time[1]), (0...60).contains(time[2])
        else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        guard let utc = TimeZone(secondsFromGMT: 0) else { return nil }
        calendar.timeZone = utc
        let components = DateComponents(
            year: year, month: monthIndex + 1, day: day, hour: time[0], minute: time[1],
            second: time[2])
        return calendar.date(from: components)
    }
}

import Foundation
import SesameProtocol

/// The `Date` field (RFC 9110 §6.6.1), an IMF-fixdate (§5.6.7), formatted once a second.
///
/// Computed from the seconds since 1970 (``UTCTime``, English names), not with Foundation's
/// date formatting: that one opens ICU, whose data then stays resident (about 3 MB of
/// `lib_FoundationICU`, issue #50) for a field that never needs a locale.
struct HTTPDateField {
    private var second = 0
    private var text = ""

    mutating func current() -> String {
        let now = Int(Date().timeIntervalSince1970)
        if now != second || text.isEmpty {
            second = now
            text = Self.format(now)
        }
        return text
    }

    private static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// `seconds` since 1970 as an IMF-fixdate, `Sun, 06 Nov 1994 08:49:37 GMT`.
    static func format(_ seconds: Int) -> String {
        let time = UTCTime(secondsSince1970: seconds)
        let year = "\(time.year)"
        let paddedYear = String(repeating: "0", count: max(0, 4 - year.count)) + year
        return "\(weekdays[time.weekday]), \(UTCTime.twoDigits(time.day)) \(months[time.month - 1]) \(paddedYear) "
            + "\(UTCTime.twoDigits(time.hour)):\(UTCTime.twoDigits(time.minute)):\(UTCTime.twoDigits(time.second)) GMT"
    }
}

/// A time as a UTC calendar reads it (the proleptic Gregorian calendar), from whole seconds
/// since 1970, with integer arithmetic: for the texts that carry times (HTTP's IMF-fixdate,
/// RFC 9110 §5.6.7; the log's ISO 8601) without Foundation's date formatting, which loads ICU
/// and its locale data (issue #50) and asks the system for the local time zone.
///
/// The date is H. Hinnant's civil-from-days algorithm ("chrono-compatible low-level date
/// algorithms"): eras of 400 years, years counted from March so that the leap day ends them.
package struct UTCTime: Equatable, Sendable {
    package var year: Int
    /// 1–12.
    package var month: Int
    /// 1–31.
    package var day: Int
    package var hour: Int
    package var minute: Int
    package var second: Int
    /// 0 for Sunday through 6 for Saturday.
    package var weekday: Int

    package init(secondsSince1970 seconds: Int) {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthFromMarch = (5 * dayOfYear + 2) / 153
        day = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1
        month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
        year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        hour = secondOfDay / 3_600
        minute = secondOfDay % 3_600 / 60
        second = secondOfDay % 60
        // 1970-01-01 was a Thursday.
        weekday = ((days % 7) + 11) % 7
    }

    /// `value` with at least two digits.
    package static func twoDigits(_ value: Int) -> String { value < 10 && value >= 0 ? "0\(value)" : "\(value)" }
}

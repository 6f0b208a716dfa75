import SesameProtocol

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The time at the start of a log line: `YYYY-MM-DDTHH:MM:SS+0000`, in UTC, formatted by
/// arithmetic from the real-time clock (issue #50: swift-log's `StreamLogHandler` asks
/// `localtime`, which looks at the time-zone file on every line). ``LogLineSink`` formats it once
/// a second.
enum LogTimestamp {
    /// Seconds since 1970 from the real-time clock (a vDSO call on Linux, not a system call).
    static func now() -> Int {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Int(spec.tv_sec)
    }

    /// `YYYY-MM-DDTHH:MM:SS+0000` for `seconds` since 1970, in UTC (``UTCTime``).
    static func text(_ seconds: Int) -> String {
        let time = UTCTime(secondsSince1970: seconds)
        func two(_ value: Int) -> String { UTCTime.twoDigits(value) }
        return "\(time.year)-\(two(time.month))-\(two(time.day))T\(two(time.hour)):\(two(time.minute)):\(two(time.second))+0000"
    }
}

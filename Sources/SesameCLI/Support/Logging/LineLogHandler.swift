import Foundation
import Logging
import SesameProtocol
import SesameServer

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The CLI's and the server's log handler: lines as swift-log's `StreamLogHandler` writes them
/// (`<time> <level> <label>: <key=value …> [<source>] <message>`, metadata sorted by key), with two
/// differences that take the system calls out of a request's log line (issue #50):
/// - the time is UTC (`2026-11-29T19:45:57+0000`), formatted from the real-time clock by
///   arithmetic, where `StreamLogHandler` asks `localtime` (which looks at the time-zone file on
///   every line);
/// - the line goes to a ``LogLineSink``, which writes batches, and at once from `warning` up.
struct LineLogHandler: RequestLineHandler {
    let label: String
    let sink: LogLineSink
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]
    var metadataProvider: Logger.MetadataProvider?

    init(label: String, sink: LogLineSink = .shared) {
        self.label = label
        self.sink = sink
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        // Merged only when two sources have members: a request line's metadata is its own.
        var all = metadata
        if let provided = metadataProvider?.get(), !provided.isEmpty { all.merge(provided) { $1 } }
        if let explicit = event.metadata, !explicit.isEmpty { all = all.isEmpty ? explicit : all.merging(explicit) { $1 } }
        if let error = event.error {
            all["error.message"] = "\(error)"
            all["error.type"] = "\(String(reflecting: type(of: error)))"
        }
        let time = Self.now()
        sink.append(
            Self.line(event, label: label, metadata: all, time: time, stamp: Self.stamps.text(for: time)),
            urgent: event.level >= .warning)
    }

    /// A request's line without swift-log's metadata dictionary (issue #50): the same text
    /// ``line(_:label:metadata:time:stamp:)`` makes of the fields as metadata. Falls back
    /// (`false`) when the handler's own metadata or provider would add members, or the level is off.
    func logRequest(_ request: RequestLine, message: String, source: String) -> Bool {
        guard metadata.isEmpty, metadataProvider == nil else { return false }
        guard logLevel <= .info else { return true }
        let stamp = Self.stamps.text(for: Self.now())
        sink.append(urgent: false) { bytes in
            Self.appendRequestLine(request, label: label, message: message, source: source, stamp: stamp, to: &bytes)
        }
        return true
    }

    /// The text of a request's line: what ``line(_:label:metadata:time:stamp:)`` makes of an
    /// `info` event with the request's fields as metadata.
    static func requestLine(_ request: RequestLine, label: String, message: String, source: String, stamp: String) -> String {
        var bytes: [UInt8] = []
        appendRequestLine(request, label: label, message: message, source: source, stamp: stamp, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// ``requestLine(_:label:message:source:stamp:)``'s text as UTF-8, appended to `bytes` (the
    /// sink's buffer): the request log's line costs no string and no copy of one.
    static func appendRequestLine(
        _ request: RequestLine, label: String, message: String, source: String, stamp: String, to bytes: inout [UInt8]
    ) {
        appendLine(
            stamp: stamp, level: Logger.Level.info.rawValue, label: label, source: source, message: message, to: &bytes
        ) { request.appendFields(to: &$0) }
    }

    /// The line of `event` (the request log's lines take ``appendRequestLine``, without the
    /// metadata dictionary).
    static func line(
        _ event: LogEvent, label: String, metadata: Logger.Metadata, time: Int, stamp: String? = nil
    ) -> String {
        var bytes: [UInt8] = []
        appendLine(
            stamp: stamp ?? timestamp(time), level: event.level.rawValue, label: label, source: event.source,
            message: event.message.description, to: &bytes
        ) { bytes in
            for (key, value) in metadata.sorted(by: { $0.key < $1.key }) {
                bytes.append(UInt8(ascii: " "))
                bytes.append(contentsOf: key.utf8)
                bytes.append(UInt8(ascii: "="))
                switch value {
                case .string(let string): bytes.append(contentsOf: string.utf8)
                case .stringConvertible(let convertible): bytes.append(contentsOf: convertible.description.utf8)
                default: bytes.append(contentsOf: value.description.utf8)
                }
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `<stamp> <level> <label>:<fields> [<source>] <message>\n` as UTF-8, appended to `bytes`;
    /// `fields` appends the ` key=value` members.
    private static func appendLine(
        stamp: String, level: String, label: String, source: String, message: String, to bytes: inout [UInt8],
        fields: (inout [UInt8]) -> Void
    ) {
        bytes.append(contentsOf: stamp.utf8)
        bytes.append(UInt8(ascii: " "))
        bytes.append(contentsOf: level.utf8)
        if !label.isEmpty {
            bytes.append(UInt8(ascii: " "))
            bytes.append(contentsOf: label.utf8)
        }
        bytes.append(UInt8(ascii: ":"))
        fields(&bytes)
        bytes.append(contentsOf: " [".utf8)
        bytes.append(contentsOf: source.utf8)
        bytes.append(contentsOf: "] ".utf8)
        bytes.append(contentsOf: message.utf8)
        bytes.append(UInt8(ascii: "\n"))
    }

    /// The timestamp of the current second, formatted once per second rather than per line.
    static let stamps = TimestampCache()

    /// Seconds since 1970 from the real-time clock (a vDSO call on Linux, not a system call).
    static func now() -> Int {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Int(spec.tv_sec)
    }

    /// `YYYY-MM-DDTHH:MM:SS+0000` for `seconds` since 1970, in UTC (``UTCTime``).
    static func timestamp(_ seconds: Int) -> String {
        let time = UTCTime(secondsSince1970: seconds)
        func two(_ value: Int) -> String { UTCTime.twoDigits(value) }
        return "\(time.year)-\(two(time.month))-\(two(time.day))T\(two(time.hour)):\(two(time.minute)):\(two(time.second))+0000"
    }
}

/// The last second's ``LineLogHandler/timestamp(_:)``, shared by every handler.
final class TimestampCache: Sendable {
    private let last = LockedState((second: Int.min, text: ""))

    func text(for second: Int) -> String {
        last.withLock { last in
            if last.second != second { last = (second, LineLogHandler.timestamp(second)) }
            return last.text
        }
    }
}

import Logging
import SesameProtocol
import SesameServer

/// The CLI's and the server's log handler: lines as swift-log's `StreamLogHandler` writes them
/// (`<time> <level> <label>: <key=value …> [<source>] <message>`, metadata sorted by key), with two
/// differences that take the system calls out of a request's log line (issue #50):
/// - the time is UTC (`2026-11-29T19:45:57+0000`, ``LogTimestamp``), formatted from the real-time
///   clock by arithmetic, where `StreamLogHandler` asks `localtime` (which looks at the time-zone
///   file on every line);
/// - the line goes to a ``LogLineSink``, which writes batches, and at once from `warning` up.
struct LineLogHandler: RequestLineHandler {
    let label: String
    let sink: LogLineSink
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]
    var metadataProvider: Logger.MetadataProvider?
    /// ` info <label>:` as UTF-8, the part of a request's line between its time and its fields.
    private let requestHead: [UInt8]

    init(label: String, sink: LogLineSink = .shared) {
        self.label = label
        self.sink = sink
        var head: [UInt8] = []
        Self.appendHead(level: Logger.Level.info.rawValue, label: label, to: &head)
        requestHead = head
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
        // Formatted before the sink's lock: a metadata value's `description` is any code, and
        // one that logged under the lock would wait for itself.
        var line: [UInt8] = []
        Self.appendLine(event, label: label, metadata: all, message: event.message.description, to: &line)
        sink.append(urgent: event.level >= .warning, stampedAt: LogTimestamp.now()) { $0.append(contentsOf: line) }
    }

    /// A request's line without swift-log's metadata dictionary (issue #50): the same text
    /// ``line(_:label:metadata:time:)`` makes of the fields as metadata. Falls back (`false`) when
    /// the handler's own metadata or provider would add members, or the level is off.
    func logRequest(_ request: RequestLine, message: String, source: String) -> Bool {
        guard metadata.isEmpty, metadataProvider == nil else { return false }
        guard logLevel <= .info else { return true }
        sink.append(urgent: false, stampedAt: LogTimestamp.now()) { bytes in
            Self.appendRequestLine(request, head: requestHead, message: message, source: source, to: &bytes)
        }
        return true
    }

    /// The text of a request's line at the time `stamp` (``LogTimestamp/text(_:)``): what
    /// ``line(_:label:metadata:time:)`` makes of an `info` event with the request's fields as metadata.
    static func requestLine(_ request: RequestLine, label: String, message: String, source: String, stamp: String) -> String {
        var head: [UInt8] = []
        appendHead(level: Logger.Level.info.rawValue, label: label, to: &head)
        var bytes = Array(stamp.utf8)
        appendRequestLine(request, head: head, message: message, source: source, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A request's line after its time, as UTF-8, appended to `bytes` (the sink's buffer): `head`
    /// (``appendHead(level:label:to:)``), the fields, source and message; no string, no copy.
    private static func appendRequestLine(
        _ request: RequestLine, head: [UInt8], message: String, source: String, to bytes: inout [UInt8]
    ) {
        bytes.append(contentsOf: head)
        request.appendFields(to: &bytes)
        appendTail(source: source, message: message, to: &bytes)
    }

    /// The line of `event` at `time` (seconds since 1970; the request log's lines take
    /// ``appendRequestLine``, without the metadata dictionary).
    static func line(_ event: LogEvent, label: String, metadata: Logger.Metadata, time: Int) -> String {
        var bytes = Array(LogTimestamp.text(time).utf8)
        appendLine(event, label: label, metadata: metadata, message: event.message.description, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `event`'s line after its time, as UTF-8, appended to `bytes`.
    private static func appendLine(
        _ event: LogEvent, label: String, metadata: Logger.Metadata, message: String, to bytes: inout [UInt8]
    ) {
        appendHead(level: event.level.rawValue, label: label, to: &bytes)
        for (key, value) in metadata.sorted(by: { $0.key < $1.key }) {
            bytes.append(UInt8(ascii: " "))
            key.appendUTF8(to: &bytes)
            bytes.append(UInt8(ascii: "="))
            switch value {
            case .string(let string): string.appendUTF8(to: &bytes)
            case .stringConvertible(let convertible): convertible.description.appendUTF8(to: &bytes)
            default: value.description.appendUTF8(to: &bytes)
            }
        }
        appendTail(source: event.source, message: message, to: &bytes)
    }

    /// ` <level> <label>:` (no label: ` <level>:`), what follows a line's time.
    private static func appendHead(level: String, label: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: " "))
        level.appendUTF8(to: &bytes)
        if !label.isEmpty {
            bytes.append(UInt8(ascii: " "))
            label.appendUTF8(to: &bytes)
        }
        bytes.append(UInt8(ascii: ":"))
    }

    /// ` [<source>] <message>\n`, what follows a line's fields.
    private static func appendTail(source: String, message: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: " "))
        bytes.append(UInt8(ascii: "["))
        source.appendUTF8(to: &bytes)
        bytes.append(UInt8(ascii: "]"))
        bytes.append(UInt8(ascii: " "))
        message.appendUTF8(to: &bytes)
        bytes.append(UInt8(ascii: "\n"))
    }
}

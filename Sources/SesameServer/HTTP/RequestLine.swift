import Logging
import SesameProtocol
import Synchronization

/// One request's log line, as fields (issue #50): what ``RequestLogMiddleware`` writes for every
/// request. A ``RequestLineHandler`` writes it without building swift-log's `Logger.Metadata`
/// dictionary, which cost most of the line's ~3 µs; any other handler gets the same fields as
/// metadata.
package struct RequestLine: Sendable {
    package var requestID: RequestIdentifier
    package var method: String
    package var path: String
    package var status: Int
    package var clientID: String?
    package var outcome: String?
    package var errorID: String?

    package init(
        requestID: RequestIdentifier, method: String, path: String, status: Int, clientID: String? = nil, outcome: String? = nil,
        errorID: String? = nil
    ) {
        self.requestID = requestID
        self.method = method
        self.path = path
        self.status = status
        self.clientID = clientID
        self.outcome = outcome
        self.errorID = errorID
    }

    /// The fields as `key=value` pairs sorted by key, as swift-log's stream format prints
    /// metadata (`client_id`, `error_id`, `method`, `outcome`, `path`, `request_id`, `status`),
    /// appended as UTF-8 to a log's buffer: no string is made for the line (issue #50).
    package func appendFields(to bytes: inout [UInt8]) {
        if let clientID { Self.append(" client_id=", clientID, to: &bytes) }
        if let errorID { Self.append(" error_id=", errorID, to: &bytes) }
        Self.append(" method=", method, to: &bytes)
        if let outcome { Self.append(" outcome=", outcome, to: &bytes) }
        Self.append(" path=", path, to: &bytes)
        Self.append(" request_id=", to: &bytes)
        requestID.append(to: &bytes)
        Self.append(" status=", to: &bytes)
        Self.appendDecimal(status, to: &bytes)
    }

    /// The same fields as swift-log metadata, for any other handler.
    package var metadata: Logger.Metadata {
        var metadata: Logger.Metadata = [
            "request_id": .string(requestID.description), "method": .string(method), "path": .string(path),
            "status": .stringConvertible(status),
        ]
        if let clientID { metadata["client_id"] = .string(clientID) }
        if let outcome { metadata["outcome"] = .string(outcome) }
        if let errorID { metadata["error_id"] = .string(errorID) }
        return metadata
    }

    private static func append(_ key: StaticString, _ value: String, to bytes: inout [UInt8]) {
        append(key, to: &bytes)
        value.appendUTF8(to: &bytes)
    }

    private static func append(_ text: StaticString, to bytes: inout [UInt8]) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// `value` in decimal, as `String(value)` writes it.
    static func appendDecimal(_ value: Int, to bytes: inout [UInt8]) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        let magnitude = value.magnitude
        var divisor: UInt = 1
        while magnitude / divisor >= 10 { divisor *= 10 }
        repeat {
            bytes.append(UInt8(ascii: "0") + UInt8(magnitude / divisor % 10))
            divisor /= 10
        } while divisor > 0
    }
}

/// A request's id in its log line: Hummingbird's text for a request it routed, or a
/// ``RequestSerial`` for one the connection answered itself (a static document), written as
/// hex digits straight into the line.
package enum RequestIdentifier: Sendable, Equatable, ExpressibleByStringLiteral, CustomStringConvertible {
    case text(String)
    case serial(RequestSerial)

    package init(stringLiteral value: String) { self = .text(value) }

    package var description: String {
        switch self {
        case .text(let text): text
        case .serial(let serial): serial.description
        }
    }

    func append(to bytes: inout [UInt8]) {
        switch self {
        case .text(let text): text.appendUTF8(to: &bytes)
        case .serial(let serial): serial.append(to: &bytes)
        }
    }
}

/// A request id as 32 lowercase hex digits: a random prefix drawn once per process, then a
/// counter (the form of Hummingbird's `RequestID`, with the prefix zero-padded too), unique
/// within the process and, by the prefix, across the processes sharing a log.
package struct RequestSerial: Sendable, Equatable, CustomStringConvertible {
    private static let counter = Atomic<UInt64>(UInt64.random(in: .min ... .max))
    static let length = 32

    let low: UInt64

    /// The next id of this process.
    package static func next() -> RequestSerial {
        RequestSerial(low: counter.wrappingAdd(1, ordering: .relaxed).oldValue)
    }

    package var description: String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Self.length)
        append(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    func append(to bytes: inout [UInt8]) {
        bytes.append(contentsOf: Self.prefixDigits)
        Self.appendHex(low, to: &bytes)
    }

    /// The random prefix's 16 digits, drawn and formatted once.
    private static let prefixDigits: [UInt8] = {
        var digits: [UInt8] = []
        appendHex(UInt64.random(in: .min ... .max), to: &digits)
        return digits
    }()

    /// `value` as 16 lowercase hex digits, formatted on the stack and appended at once.
    private static func appendHex(_ value: UInt64, to bytes: inout [UInt8]) {
        var digits: (UInt64, UInt64) = (0, 0)
        withUnsafeMutableBytes(of: &digits) { raw in
            var rest = value
            for index in stride(from: 15, through: 0, by: -1) {
                let nibble = UInt8(truncatingIfNeeded: rest) & 0x0F
                raw[index] = nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
                rest >>= 4
            }
            bytes.append(contentsOf: raw)
        }
    }
}

/// A log handler that writes ``RequestLine``s itself (the `sesame` CLI's line handler). It
/// answers `false` when it cannot write the line as the general path would (its own metadata,
/// a metadata provider), and the caller logs the line through swift-log instead.
package protocol RequestLineHandler: LogHandler {
    /// Writes `line` at `info` with `message` from `source`; `false`: not written, log it normally.
    func logRequest(_ line: RequestLine, message: String, source: String) -> Bool
}

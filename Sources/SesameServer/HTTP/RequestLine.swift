import Logging

/// One request's log line, as fields (issue #50): what ``RequestLogMiddleware`` writes for every
/// request. A ``RequestLineHandler`` writes it without building swift-log's `Logger.Metadata`
/// dictionary, which cost most of the line's ~3 µs; any other handler gets the same fields as
/// metadata.
package struct RequestLine: Sendable {
    package var requestID: String
    package var method: String
    package var path: String
    package var status: Int
    package var clientID: String?
    package var outcome: String?
    package var errorID: String?

    package init(
        requestID: String, method: String, path: String, status: Int, clientID: String? = nil, outcome: String? = nil,
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
    /// metadata (`client_id`, `error_id`, `method`, `outcome`, `path`, `request_id`, `status`).
    package func appendFields(to text: inout String) {
        if let clientID { Self.append("client_id", clientID, to: &text) }
        if let errorID { Self.append("error_id", errorID, to: &text) }
        Self.append("method", method, to: &text)
        if let outcome { Self.append("outcome", outcome, to: &text) }
        Self.append("path", path, to: &text)
        Self.append("request_id", requestID, to: &text)
        Self.append("status", String(status), to: &text)
    }

    /// The same fields as swift-log metadata, for any other handler.
    package var metadata: Logger.Metadata {
        var metadata: Logger.Metadata = [
            "request_id": .string(requestID), "method": .string(method), "path": .string(path),
            "status": .stringConvertible(status),
        ]
        if let clientID { metadata["client_id"] = .string(clientID) }
        if let outcome { metadata["outcome"] = .string(outcome) }
        if let errorID { metadata["error_id"] = .string(errorID) }
        return metadata
    }

    /// The bytes of the fields, for reserving a line's capacity.
    package var length: Int {
        requestID.utf8.count + method.utf8.count + path.utf8.count + (clientID?.utf8.count ?? 0)
            + (outcome?.utf8.count ?? 0) + (errorID?.utf8.count ?? 0) + 80
    }

    private static func append(_ key: String, _ value: String, to text: inout String) {
        text += " "
        text += key
        text += "="
        text += value
    }
}

/// A log handler that writes ``RequestLine``s itself (the `sesame` CLI's line handler). It
/// answers `false` when it cannot write the line as the general path would (its own metadata,
/// a metadata provider), and the caller logs the line through swift-log instead.
package protocol RequestLineHandler: LogHandler {
    /// Writes `line` at `info` with `message` from `source`; `false`: not written, log it normally.
    func logRequest(_ line: RequestLine, message: String, source: String) -> Bool
}

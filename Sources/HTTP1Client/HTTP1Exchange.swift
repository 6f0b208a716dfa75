import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1

/// One HTTP/1.1 request and its response on a fresh connection (RFC 9112), with
/// `Connection: close`: the head and body of the ``HTTP1Request``, the response collected up to a
/// size limit, the whole exchange bounded by a timeout.
struct HTTP1Exchange {
    let request: HTTP1Request
    let endpoint: HTTP1Endpoint
    let maximumResponseBytes: Int

    /// Every failure is an ``HTTP1ClientError``: the client's own, a parser's as `badResponse`,
    /// the channel's as `connectionLost`, anything after the deadline as `timedOut`.
    func run(
        on channel: NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>, timeout: TimeInterval
    ) async throws(HTTP1ClientError) -> HTTP1Response {
        let expired = NIOLockedValueBox(false)
        let deadline = channel.channel.eventLoop.scheduleTask(in: .milliseconds(Int64(min(max(timeout, 1), 3600) * 1000))) {
            expired.withLockedValue { $0 = true }
            channel.channel.close(promise: nil)
        }
        defer { deadline.cancel() }
        do {
            return try await channel.executeThenClose { inbound, outbound in
                try await outbound.write(.head(head()))
                if !request.body.isEmpty { try await outbound.write(.body(.byteBuffer(ByteBuffer(bytes: request.body)))) }
                try await outbound.write(.end(nil))
                var response: HTTPResponseHead?
                var collected = Data()
                for try await part in inbound {
                    switch part {
                    case .head(let received):
                        response = received
                    case .body(let buffer):
                        guard collected.count + buffer.readableBytes <= maximumResponseBytes else {
                            throw HTTP1ClientError.responseTooLarge
                        }
                        collected.append(contentsOf: buffer.readableBytesView)
                    case .end:
                        guard let response else { throw HTTP1ClientError.badResponse }
                        return HTTP1Response(
                            status: Int(response.status.code), headers: response.headers.map { ($0.name, $0.value) },
                            body: collected)
                    }
                }
                throw expired.withLockedValue { $0 } ? HTTP1ClientError.timedOut : .connectionLost("closed before the response ended")
            }
        } catch {
            if expired.withLockedValue({ $0 }) { throw .timedOut }
            if let error = error as? HTTP1ClientError { throw error }
            if error is HTTPParserError { throw .badResponse }
            throw .connectionLost("\(error)")
        }
    }

    private func head() -> HTTPRequestHead {
        let components = URLComponents(url: request.url, resolvingAgainstBaseURL: false)
        var path = components?.percentEncodedPath ?? "/"
        if path.isEmpty { path = "/" }
        if let query = components?.percentEncodedQuery { path += "?" + query }
        var headers = HTTPHeaders()
        let host = endpoint.host.contains(":") ? "[\(endpoint.host)]" : endpoint.host
        headers.add(name: "Host", value: endpoint.port == (endpoint.secure ? 443 : 80) ? host : "\(host):\(endpoint.port)")
        for (name, value) in request.headers
        where !["host", "content-length", "connection", "transfer-encoding"].contains(name.lowercased()) {
            headers.add(name: name, value: value)
        }
        // As URLSession does: servers that tell browsers from scripts by Accept see a client that takes anything.
        if !headers.contains(name: "Accept") { headers.add(name: "Accept", value: "*/*") }
        if !headers.contains(name: "User-Agent") { headers.add(name: "User-Agent", value: request.defaultUserAgent) }
        if !request.body.isEmpty || ["POST", "PUT", "PATCH"].contains(request.method) {
            headers.add(name: "Content-Length", value: String(request.body.count))
        }
        headers.add(name: "Connection", value: "close")
        return HTTPRequestHead(version: .http1_1, method: HTTPMethod(rawValue: request.method), uri: path, headers: headers)
    }
}

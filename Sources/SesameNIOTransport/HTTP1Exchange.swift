import Foundation
import NIOCore
import NIOHTTP1
import SesameProtocol

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One HTTP/1.1 request and its response on a fresh connection (RFC 9112), with
/// `Connection: close`: the head and body from the `URLRequest`, the response collected up to a
/// size limit, the whole exchange bounded by the request's timeout.
struct HTTP1Exchange {
    let request: URLRequest
    let host: String
    let port: Int
    let maximumResponseBytes: Int

    func run(
        on channel: NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>, timeout: TimeInterval
    ) async throws -> (Data, HTTPURLResponse) {
        let expired = LockedState(false)
        let deadline = channel.channel.eventLoop.scheduleTask(in: .milliseconds(Int64(min(max(timeout, 1), 3600) * 1000))) {
            expired.withLock { $0 = true }
            channel.channel.close(promise: nil)
        }
        defer { deadline.cancel() }
        do {
            return try await channel.executeThenClose { inbound, outbound in
                let body = request.httpBody ?? Data()
                try await outbound.write(.head(head(bodyLength: body.count)))
                if !body.isEmpty { try await outbound.write(.body(.byteBuffer(ByteBuffer(bytes: body)))) }
                try await outbound.write(.end(nil))
                var response: HTTPResponseHead?
                var collected = Data()
                for try await part in inbound {
                    switch part {
                    case .head(let received):
                        response = received
                    case .body(let buffer):
                        guard collected.count + buffer.readableBytes <= maximumResponseBytes else {
                            throw URLError(.dataLengthExceedsMaximum)
                        }
                        collected.append(contentsOf: buffer.readableBytesView)
                    case .end:
                        guard let response, let url = request.url else { throw URLError(.badServerResponse) }
                        return (collected, try Self.urlResponse(response, url: url))
                    }
                }
                throw URLError(expired.withLock { $0 } ? .timedOut : .networkConnectionLost)
            }
        } catch {
            if expired.withLock({ $0 }) { throw URLError(.timedOut) }
            throw error
        }
    }

    private func head(bodyLength: Int) -> HTTPRequestHead {
        let components = request.url.flatMap { URLComponents(url: $0, resolvingAgainstBaseURL: false) }
        var path = components?.percentEncodedPath ?? "/"
        if path.isEmpty { path = "/" }
        if let query = components?.percentEncodedQuery { path += "?" + query }
        var headers = HTTPHeaders()
        let defaultPort = request.url?.scheme?.lowercased() == "https" ? 443 : 80
        let hostText = host.contains(":") ? "[\(host)]" : host
        headers.add(name: "Host", value: port == defaultPort ? hostText : "\(hostText):\(port)")
        for (name, value) in request.allHTTPHeaderFields ?? [:]
        where !["host", "content-length", "connection", "transfer-encoding"].contains(name.lowercased()) {
            headers.add(name: name, value: value)
        }
        // As URLSession does: servers that tell browsers from scripts by Accept see a client that takes anything.
        if !headers.contains(name: "Accept") { headers.add(name: "Accept", value: "*/*") }
        if !headers.contains(name: "User-Agent") { headers.add(name: "User-Agent", value: "Sesame (NIOTransport)") }
        if bodyLength > 0 || ["POST", "PUT", "PATCH"].contains(request.httpMethod ?? "GET") {
            headers.add(name: "Content-Length", value: String(bodyLength))
        }
        headers.add(name: "Connection", value: "close")
        return HTTPRequestHead(
            version: .http1_1, method: HTTPMethod(rawValue: request.httpMethod ?? "GET"), uri: path, headers: headers)
    }

    static func urlResponse(_ head: HTTPResponseHead, url: URL) throws -> HTTPURLResponse {
        var fields: [String: String] = [:]
        for (name, value) in head.headers {
            fields[name] = fields[name].map { "\($0), \(value)" } ?? value
        }
        guard let response = HTTPURLResponse(url: url, statusCode: Int(head.status.code), httpVersion: "HTTP/1.1", headerFields: fields)
        else { throw URLError(.badServerResponse) }
        return response
    }
}

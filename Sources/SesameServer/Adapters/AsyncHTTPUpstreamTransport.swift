import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import SesameProvider

/// The provider's ``UpstreamTransport`` over AsyncHTTPClient: the server's calls to federation
/// providers (their JWKS, discovery, token and Graph endpoints).
struct AsyncHTTPUpstreamTransport: UpstreamTransport {
    /// Over the process's shared client.
    static let shared = AsyncHTTPUpstreamTransport(client: .shared)

    let client: HTTPClient

    func send(_ request: UpstreamRequest, timeout: TimeInterval, maximumBytes: Int) async throws -> UpstreamResponse {
        var outgoing = HTTPClientRequest(url: request.url)
        outgoing.method = request.method == .post ? .POST : .GET
        for (name, value) in request.headers { outgoing.headers.add(name: name, value: value) }
        if let body = request.body { outgoing.body = .bytes(ByteBuffer(bytes: body)) }
        let response = try await client.execute(outgoing, timeout: .milliseconds(Int64(timeout * 1_000)))
        let body = try await response.body.collect(upTo: maximumBytes)
        return UpstreamResponse(
            status: Int(response.status.code), headers: response.headers.map { ($0.name, $0.value) },
            body: Data(buffer: body))
    }
}

import Crypto
import Foundation
import Hummingbird

/// `GET /metrics`: ``ServerMetrics`` in the Prometheus text format. Never public by default:
/// served either on the main port behind a bearer token the operator chose (RFC 6750 §2.1
/// header only; compared in constant time), or without a token on a separate metrics port
/// that the operator keeps off the public network (``MetricsExposure``).
struct MetricsEndpoint: Sendable {
    let metrics: ServerMetrics
    /// SHA-256 of the bearer token, or `nil` on the separate metrics port.
    let tokenDigest: SHA256.Digest?

    init(metrics: ServerMetrics, token: String?) {
        self.metrics = metrics
        tokenDigest = token.map { SHA256.hash(data: Data($0.utf8)) }
    }

    static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    func handle<Context: RequestContext>(_ request: Request, context: Context) throws -> Response {
        if let tokenDigest {
            guard let presented = Self.bearerToken(request),
                SHA256.hash(data: Data(presented.utf8)) == tokenDigest  // swift-crypto: constant time
            else {
                return Response(
                    status: .unauthorized,
                    headers: [.wwwAuthenticate: #"Bearer realm="sesame-metrics""#, .cacheControl: "no-store"])
            }
        }
        return Response(
            status: .ok, headers: [.contentType: Self.contentType, .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(string: metrics.exposition())))
    }

    private static func bearerToken(_ request: Request) -> String? {
        guard let value = request.headers[.authorization] else { return nil }
        let parts = value.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        return String(parts[1]).trimmingCharacters(in: .whitespaces)
    }
}

/// How `/metrics` is reached, if at all.
public enum MetricsExposure: Sendable, Equatable {
    /// On the main port, for requests that carry `Authorization: Bearer <token>`.
    case bearerToken(String)
    /// On a port of its own (on the server's host), without a token; `0` picks a free port.
    case port(Int)
}

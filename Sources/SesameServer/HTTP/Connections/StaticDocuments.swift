import HTTPTypes
import Logging
import NIOCore
import NIOHTTP1
import Synchronization

/// The responses that are the same for every `GET` of their path: the discovery documents
/// (OpenID Connect Discovery 1.0 §4, RFC 8414 §3). The router publishes them when it is built;
/// ``StaticDocumentResponder`` answers them on the connection's event loop, without the hop to
/// Swift's cooperative pool and back that a Hummingbird route costs (most of the CPU of such a
/// request, docs/benchmarks.md).
///
/// A document carries the exact header fields its route sends, bar `Date` and `Server` (added
/// per response) and the rate-limit fields; a test compares the two answers field by field.
final class StaticDocuments: Sendable {
    /// One published response.
    struct Document: Sendable {
        /// The router's pattern for the path (the `route` label of the request metrics).
        let route: String
        /// Unique to this document: a head kept for reuse (``StaticDocumentResponder``) is
        /// reused only for the document it was made from, even if another is published at the
        /// same path.
        let serial: Int
        let body: ByteBuffer
        /// The status line and the fields (RFC 9112 §4, §5) as NIO's response encoder takes them:
        /// `Content-Type`, the route's own fields, the security headers and `Content-Length`.
        let head: HTTPResponseHead

        /// The document of a route's `response`, with what every response of the router gets
        /// (the security headers and `Content-Length`).
        init(route: String, response: HTTPFields, body: ByteBuffer, https: Bool) {
            var fields = response
            ResponseSecurityHeadersMiddleware.addFields(to: &fields, https: https)
            var headers = HTTPHeaders()
            headers.reserveCapacity(fields.count + 6)
            for field in fields { headers.add(name: field.name.rawName, value: field.value) }
            headers.add(name: "Content-Length", value: String(body.readableBytes))
            self.route = route
            self.serial = StaticDocuments.serials.add(1, ordering: .relaxed).newValue
            self.body = body
            self.head = HTTPResponseHead(version: .http1_1, status: .ok, headers: headers)
        }
    }

    /// What a request answered here pays, as through the router's middleware (given by the
    /// routes, which know the metrics and the rate limits).
    struct Accounting: Sendable {
        /// Where the request log line goes (``RequestLogMiddleware``'s line).
        let log: RequestLog
        /// Records an answered `GET` in the request metrics (``MetricsMiddleware``'s record).
        let recordRequest: @Sendable (_ route: String, _ status: Int, _ duration: Duration) -> Void
        /// The rate-limit fields of a request from `address` (a ``ClientAddressKey``) admitted in
        /// memory; `nil` when the router must decide. `nil` itself: no limit.
        let admit: (@Sendable (_ address: String?) -> HTTPFields?)?
        let proxies: TrustedProxies
    }

    /// The `Server` field of every response (Hummingbird's `serverName` too).
    static let serverField = "Sesame"

    private struct Published {
        var documents: [String: Document]
        var accounting: Accounting
    }

    private static let serials = Atomic<Int>(0)
    private let published = Mutex<Published?>(nil)
    private let answers = Atomic<Int>(0)

    init() {}

    /// Publishes `documents` (by exact path: a query string goes to the router).
    func publish(_ documents: [String: Document], accounting: Accounting) {
        published.withLock { $0 = Published(documents: documents, accounting: accounting) }
    }

    /// The document published at `uri`, if any, with what answering it pays.
    func document(at uri: String) -> (Document, Accounting)? {
        published.withLock { published in
            guard let published, let document = published.documents[uri] else { return nil }
            return (document, published.accounting)
        }
    }

    /// Requests answered by ``StaticDocumentResponder`` (not by the router) since start.
    var answered: Int { answers.load(ordering: .relaxed) }

    func countAnswer() { answers.add(1, ordering: .relaxed) }
}

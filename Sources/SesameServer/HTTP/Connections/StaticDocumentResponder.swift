import Foundation
import Hummingbird
import NIOCore
import NIOHTTP1

/// Answers a `GET` of a ``StaticDocuments`` path on the connection's event loop, between the
/// ``ConnectionGuard`` and Hummingbird's codec; every other request goes on to the router.
///
/// A request answered here pays what the router's middleware would make it pay: its per-address
/// rate limit (when the limiter can admit it in memory), its request log line and its metrics.
/// It goes on to the router instead whenever the answer could differ from the router's or
/// overtake another:
/// - a response to an earlier request on the connection has not ended (RFC 9112 §9.3.2:
///   responses in the order of the requests);
/// - not HTTP/1.1, not kept alive, a body announced, or a query string;
/// - the peer is a trusted proxy (the client address comes from `X-Forwarded-For`);
/// - the rate limit needs the store (a new window in a deployment that shares counts) or
///   refuses (the router answers the 429 and audits it).
///
/// The answer goes through NIO's response encoder like the router's: the document's prepared head
/// (its fields copied once a second, with the request's `RateLimit` fields), the body and the end.
/// The encoder pairs each response head with the method its decoder recorded for the request (to
/// frame a `HEAD` answer without a body). Before 2026-12-01 (issue #50) the answer was written as
/// bytes past the encoder: that left one recorded method behind per answer, so the encoder's queue
/// grew by one for each request of the connection's life (a 1 MB buffer from 32,769 requests on;
/// half of a discovery load's peak memory), and the router's next answer was framed for an earlier
/// request: a `GET` after a `HEAD` got its `Content-Length` and no body. Through the encoder, an
/// answer costs about 2 µs more (docs/benchmarks.md).
final class StaticDocumentResponder: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private let documents: StaticDocuments
    /// Requests passed on to the router whose response has not ended.
    private var forwarded = 0
    /// The answer to the request being read, written once its end arrives (so that the
    /// ``ConnectionGuard`` sees the request end before its response, as with the router).
    private var answer: PreparedAnswer?
    private var date = HTTPDateField()
    /// The last answer's head with its `Date` and `Server`, reused within the same second for
    /// the same document.
    private var lastHead: (document: Int, date: String, head: HTTPResponseHead)?

    private struct PreparedAnswer {
        let document: StaticDocuments.Document
        let accounting: StaticDocuments.Accounting
        let path: String
        let rateLimitFields: HTTPFields
        let start: ContinuousClock.Instant
    }

    init(documents: StaticDocuments) {
        self.documents = documents
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            if forwarded == 0, let prepared = prepare(head, context: context) {
                answer = prepared
                return
            }
            forwarded += 1
        case .body:
            if answer != nil { return }
        case .end:
            if let prepared = answer {
                answer = nil
                respond(prepared, context: context)
                return
            }
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) { forwarded = max(0, forwarded - 1) }
        context.write(data, promise: promise)
    }

    /// The answer to `head` if this handler may give it, counted against its rate limit.
    private func prepare(_ head: HTTPRequestHead, context: ChannelHandlerContext) -> PreparedAnswer? {
        guard head.method == .GET, head.version == .http1_1, head.isKeepAlive,
            !head.headers.contains(name: "content-length"), !head.headers.contains(name: "transfer-encoding"),
            let (document, accounting) = documents.document(at: head.uri)
        else { return nil }
        let peer = context.channel.remoteAddress
        if accounting.proxies.trusts(peer: peer) { return nil }
        var rateLimitFields = HTTPFields()
        if let admit = accounting.admit {
            guard let fields = admit(ClientAddressKey.of(peer)) else { return nil }
            rateLimitFields = fields
        }
        return PreparedAnswer(
            document: document, accounting: accounting, path: head.uri, rateLimitFields: rateLimitFields,
            start: .now)
    }

    private func respond(_ prepared: PreparedAnswer, context: ChannelHandlerContext) {
        let document = prepared.document
        let now = date.current()
        var head: HTTPResponseHead
        if let last = lastHead, last.document == document.serial, last.date == now {
            head = last.head
        } else {
            head = document.head
            head.headers.add(name: "Date", value: now)
            head.headers.add(name: "Server", value: StaticDocuments.serverField)
            lastHead = (document.serial, now, head)
        }
        for field in prepared.rateLimitFields { head.headers.add(name: field.name.rawName, value: field.value) }
        // Toward the socket through the ConnectionGuard (which sees the `.end`) and the encoder
        // (which pairs the head with this request's method).
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(document.body))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        documents.countAnswer()
        let accounting = prepared.accounting
        accounting.recordRequest(prepared.document.route, 200, .now - prepared.start)
        accounting.log.write(requestID: .serial(.next()), method: "GET", path: prepared.path, status: 200)
    }
}

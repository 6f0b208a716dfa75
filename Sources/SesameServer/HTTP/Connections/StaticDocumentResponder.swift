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
/// The answer is written as bytes past NIO's response encoder (a tenth of the CPU of such a
/// request, docs/benchmarks.md): the document's prepared head, this response's fields and the
/// body, in one buffer; the ``ConnectionGuard`` is told that the response ended, as its `write`
/// would have seen.
final class StaticDocumentResponder: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private let documents: StaticDocuments
    /// The connection's guard, told of each response written past it.
    private let connectionGuard: ConnectionGuard
    /// The context of NIO's response encoder: writes from it go on toward the socket.
    private let encoder: ChannelHandlerContext
    /// Requests passed on to the router whose response has not ended.
    private var forwarded = 0
    /// The answer to the request being read, written once its end arrives (so that the
    /// ``ConnectionGuard`` sees the request end before its response, as with the router).
    private var answer: PreparedAnswer?
    private var date = HTTPDateField()

    private struct PreparedAnswer {
        let document: StaticDocuments.Document
        let accounting: StaticDocuments.Accounting
        let path: String
        let rateLimitFields: HTTPFields
        let start: ContinuousClock.Instant
    }

    init(documents: StaticDocuments, connectionGuard: ConnectionGuard, encoder: ChannelHandlerContext) {
        self.documents = documents
        self.connectionGuard = connectionGuard
        self.encoder = encoder
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
        var bytes = context.channel.allocator.buffer(
            capacity: document.head.readableBytes + 160 + document.body.readableBytes)
        bytes.writeImmutableBuffer(document.head)
        for field in prepared.rateLimitFields { bytes.writeFieldLine(name: field.name.rawName, value: field.value) }
        bytes.writeFieldLine(name: "Date", value: date.current())
        bytes.writeFieldLine(name: "Server", value: StaticDocuments.serverField)
        bytes.writeStaticString("\r\n")
        bytes.writeImmutableBuffer(document.body)
        encoder.writeAndFlush(NIOAny(IOData.byteBuffer(bytes)), promise: nil)
        connectionGuard.responseEnded(channel: context.channel, eventLoop: context.eventLoop)
        documents.countAnswer()
        let accounting = prepared.accounting
        accounting.recordRequest(prepared.document.route, 200, .now - prepared.start)
        accounting.log.write(requestID: RequestID().description, method: "GET", path: prepared.path, status: 200)
    }
}

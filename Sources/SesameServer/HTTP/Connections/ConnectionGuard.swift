import Foundation
import NIOCore
import NIOHTTP1
import SesameProtocol

/// Watches each HTTP/1 connection between NIO's request decoder and Hummingbird's codec, where
/// the request is still HTTP/1 (its version and keep-alive are known):
/// - **timeouts** (``ConnectionLimits``): the first request head must be complete within
///   `headerTimeout` of the connection opening, the next one within `idleTimeout` of the last
///   response, and a body within `bodyTimeout` of its head; past a deadline the connection is
///   closed. Between a request's end and its response there is no deadline (the handler works).
/// - **persistence** (RFC 9112 §9.3): a request that does not keep the connection alive (HTTP/1.0
///   without `Connection: keep-alive`, or `Connection: close`) is marked `Connection: close` for
///   Hummingbird, which then closes the connection after the response.
/// - **malformed requests**: a request NIO cannot parse (a request line or header block over
///   the limits, too many headers, bad syntax) is answered with the usual JSON error —
///   431 `request_header_fields_too_large` for size, 400 `invalid_request` otherwise — instead of
///   an empty 400, and the connection is closed (RFC 9112 §9.6 after a bad message).
/// - **requests refused by their head** (``HeadCheck``): an HTTP/1.1 request without exactly
///   one `Host` is 400 (RFC 9112 §3.2); a declared `Content-Length` over
///   ``ConnectionLimits/maximumBodySize`` is 413 (RFC 9110 §15.5.14). Either is answered at
///   once, before any body is read, and the connection is then closed.
final class ConnectionGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private let limits: ConnectionLimits
    /// When the current wait ends (`nil`: none, the handler is working on a request).
    private var deadline: NIODeadline?
    /// The one scheduled check, due at `timerDue` (at or before `deadline` while there is one).
    /// Arming and disarming only move `deadline`: a request costs two clock reads instead of two
    /// scheduled tasks and two cancellations (perf: 4% of the CPU of a small response), and the
    /// check reschedules itself when it finds the deadline moved later.
    private var timer: Scheduled<Void>?
    private var timerDue: NIODeadline?
    /// Requests whose head arrived and whose response has not ended.
    private var inFlight = 0
    private var failed = false

    init(limits: ConnectionLimits) { self.limits = limits }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { arm(limits.headerTimeout, context: context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        arm(limits.headerTimeout, context: context)
        context.fireChannelActive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        disarm()
        timer?.cancel()
        timer = nil
        timerDue = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        // After a refusal the rest of what the client sends is dropped until the close.
        guard !failed else { return }
        switch unwrapInboundIn(data) {
        case .head(var head):
            if let refusal = HeadCheck.refusal(of: head) {
                refuse(refusal, context: context)
                return
            }
            inFlight += 1
            arm(limits.bodyTimeout, context: context)
            if !head.isKeepAlive { head.headers.replaceOrAdd(name: "connection", value: "close") }
            context.fireChannelRead(wrapInboundOut(.head(head)))
            return
        case .body:
            break
        case .end:
            disarm()
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) { responseEnded(channel: context.channel, eventLoop: context.eventLoop) }
        context.write(data, promise: promise)
    }

    /// A response ended: what `write` records for an `.end`. On the connection's event loop.
    private func responseEnded(channel: any Channel, eventLoop: any EventLoop) {
        inFlight = max(0, inFlight - 1)
        if inFlight == 0 { arm(limits.idleTimeout, channel: channel, eventLoop: eventLoop) }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let parserError = error as? HTTPParserError, !failed else {
            context.fireErrorCaught(error)
            return
        }
        refuse(Self.describe(parserError), context: context)
    }

    /// Answers with the JSON error of `refusal` and closes the connection once it is written.
    private func refuse(_ refusal: (HTTPResponseStatus, APIErrorCode, String), context: ChannelHandlerContext) {
        failed = true
        disarm()
        let (status, code, description) = refusal
        var body = context.channel.allocator.buffer(capacity: 512)
        let errorID = SecureRandom.uuid()
        if let json = try? JSONEncoder().encode(APIError(code, description: description, errorID: errorID)) {
            body.writeBytes(json)
        }
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "application/json")
        headers.add(name: "Content-Length", value: String(body.readableBytes))
        headers.add(name: "Cache-Control", value: "no-store")
        headers.add(name: "X-Content-Type-Options", value: "nosniff")
        headers.add(name: "Connection", value: "close")
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
        // The channel (Sendable), not the context: the callback runs on the channel's event loop anyway.
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
    }

    /// The answer to a request NIO could not parse.
    static func describe(_ error: HTTPParserError) -> (HTTPResponseStatus, APIErrorCode, String) {
        switch error {
        case .headerOverflow:
            return (
                .requestHeaderFieldsTooLarge, .requestHeaderFieldsTooLarge,
                "The request line and headers are larger than the server accepts (80 KiB) or too many; send a shorter request (long values belong in a form body)."
            )
        default:
            return (.badRequest, .invalidRequest, "The request is not valid HTTP/1.1 (\(error)); the connection is closed.")
        }
    }

    /// Starts a wait of `timeout`: past it the connection is closed.
    private func arm(_ timeout: TimeInterval, context: ChannelHandlerContext) {
        arm(timeout, channel: context.channel, eventLoop: context.eventLoop)
    }

    private func arm(_ timeout: TimeInterval, channel: any Channel, eventLoop: any EventLoop) {
        let due = NIODeadline.now() + .milliseconds(Int64(timeout * 1000))
        deadline = due
        // A check due no later than the new deadline looks again when it runs.
        if let timerDue, timerDue <= due { return }
        schedule(due, channel: channel, eventLoop: eventLoop)
    }

    /// Ends the wait; a pending check then finds nothing to do.
    private func disarm() {
        deadline = nil
    }

    private func schedule(_ due: NIODeadline, channel: any Channel, eventLoop: any EventLoop) {
        timer?.cancel()
        timerDue = due
        let handler = NIOLoopBound(self, eventLoop: eventLoop)
        timer = eventLoop.scheduleTask(deadline: due) {
            handler.value.check(channel: channel, eventLoop: eventLoop)
        }
    }

    /// The scheduled check: closes the connection past its deadline, or waits for the later
    /// deadline the connection has moved on to.
    private func check(channel: any Channel, eventLoop: any EventLoop) {
        timer = nil
        timerDue = nil
        guard let deadline else { return }
        if NIODeadline.now() >= deadline {
            channel.close(promise: nil)
            return
        }
        schedule(deadline, channel: channel, eventLoop: eventLoop)
    }
}

/// Puts a ``ConnectionGuard`` right after NIO's HTTP/1 request decoder (Hummingbird's own
/// additional handlers sit after its codec, where the HTTP version is gone) and a
/// ``StaticDocumentResponder`` after it; counts the connection against
/// the ``ConnectionCap`` (closing it at once past the maximum), then leaves.
final class ConnectionGuardInstaller: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny
    private let limits: ConnectionLimits
    private let cap: ConnectionCap
    private let staticDocuments: StaticDocuments

    init(limits: ConnectionLimits, cap: ConnectionCap, staticDocuments: StaticDocuments) {
        self.limits = limits
        self.cap = cap
        self.staticDocuments = staticDocuments
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let cap = cap
        let admitted = cap.opened()
        context.channel.closeFuture.whenComplete { _ in cap.closed() }
        let pipeline = context.pipeline.syncOperations
        guard admitted else {
            context.channel.close(promise: nil)
            return
        }
        if let decoder = try? pipeline.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self) {
            let connectionGuard = ConnectionGuard(limits: limits)
            try? pipeline.addHandler(connectionGuard, position: .after(decoder))
            try? pipeline.addHandler(StaticDocumentResponder(documents: staticDocuments), position: .after(connectionGuard))
        }
        pipeline.removeHandler(context: context, promise: nil)
    }
}

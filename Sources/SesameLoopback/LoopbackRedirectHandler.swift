import Foundation
import NIOCore
import NIOHTTP1
import Sesame

/// What one connection's ``LoopbackRedirectHandler`` needs to know.
struct LoopbackRedirectTarget: Sendable {
    let redirect: LoopbackRedirectURI
    /// HTML answered on the redirect path.
    let successPage: String?
    let outcome: LoopbackRedirectOutcome
}

/// Answers the browser on one accepted loopback connection (RFC 8252 §7.3).
///
/// - `GET <redirect path>?…`: records the full redirect URL as the outcome, answers 200 with a
///   small "you can close this tab" page, and closes the listening socket (§8.3: listen only while
///   the request is pending).
/// - Any other path: 404, and the listener keeps waiting (browsers ask for `/favicon.ico`).
/// - Any other method: 405.
///
/// Lives on its channel's event loop only, so it is not `Sendable` and needs no locks. It never
/// logs: the redirect carries the authorization code.
final class LoopbackRedirectHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let target: LoopbackRedirectTarget
    private var head: HTTPRequestHead?

    init(target: LoopbackRedirectTarget) {
        self.target = target
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
        case .body:
            break  // a GET has no meaningful body; ignore it
        case .end:
            guard let head else { return }
            self.head = nil
            answer(head, context: context)
        }
    }

    private func answer(_ head: HTTPRequestHead, context: ChannelHandlerContext) {
        guard head.method == .GET else {
            respond(.methodNotAllowed, LoopbackPages.methodNotAllowed, extraHeaders: [("Allow", "GET")], context: context)
            return
        }
        let (path, query) = Self.split(head.uri)
        guard path == target.redirect.path, let port = context.channel.localAddress?.port else {
            respond(.notFound, LoopbackPages.notFound, context: context)
            return
        }
        let base = target.redirect.url(boundPort: port).absoluteString
        guard let redirectURL = URL(string: query.map { base + "?" + $0 } ?? base) else {
            respond(.badRequest, LoopbackPages.notFound, context: context)
            return
        }
        target.outcome.finish(.success(redirectURL))
        let page = target.successPage ?? (Self.isErrorResponse(redirectURL) ? LoopbackPages.notSignedIn : LoopbackPages.signedIn)
        respond(.ok, page, context: context)
        // The one redirect has arrived: stop listening (RFC 8252 §8.3).
        context.channel.parent?.close(promise: nil)
    }

    /// Writes a complete HTML response and closes the connection once it is sent.
    private func respond(
        _ status: HTTPResponseStatus,
        _ html: String,
        extraHeaders: [(String, String)] = [],
        context: ChannelHandlerContext
    ) {
        var headers = HTTPHeaders([
            ("Content-Type", "text/html; charset=utf-8"),
            ("Cache-Control", "no-store"),
            ("Referrer-Policy", "no-referrer"),
            ("X-Content-Type-Options", "nosniff"),
            ("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'"),
            ("Connection", "close"),
        ])
        headers.add(contentsOf: extraHeaders)
        var body = context.channel.allocator.buffer(capacity: html.utf8.count)
        body.writeString(html)
        headers.add(name: "Content-Length", value: String(body.readableBytes))
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in
            channel.close(promise: nil)
        }
    }

    /// Splits an origin-form request target into path and raw query.
    static func split(_ uri: String) -> (path: String, query: String?) {
        guard let mark = uri.firstIndex(of: "?") else { return (uri, nil) }
        return (String(uri[..<mark]), String(uri[uri.index(after: mark)...]))
    }

    /// Whether the redirect is an OAuth error response (RFC 6749 §4.1.2.1).
    static func isErrorResponse(_ url: URL) -> Bool {
        URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?.contains { $0.name == "error" } ?? false
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}

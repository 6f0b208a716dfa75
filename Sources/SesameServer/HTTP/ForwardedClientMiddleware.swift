import HTTPTypes
import Hummingbird

/// Sets ``SesameRequestContext/clientAddress`` from `X-Forwarded-For` when the connection comes
/// from a trusted reverse proxy (``TrustedProxies``); otherwise it stays the TCP peer.
struct ForwardedClientMiddleware: RouterMiddleware {
    typealias Context = SesameRequestContext
    let proxies: TrustedProxies

    func handle(
        _ request: Request, context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard !proxies.networks.isEmpty else { return try await next(request, context) }
        var context = context
        context.clientAddress = proxies.clientAddress(
            peer: context.remoteAddress, forwardedFor: request.headers[values: .xForwardedFor])
        return try await next(request, context)
    }
}

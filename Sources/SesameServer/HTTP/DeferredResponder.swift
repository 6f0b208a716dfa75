import SesameProtocol
import Hummingbird

/// The slot for the router's responder, filled once the bound port (and so the default issuer,
/// which the router's endpoints need) is known.
final class RouterResponderSlot: Sendable {
    private let responder = LockedState<RouterResponder<SesameRequestContext>?>(nil)

    func set(_ value: RouterResponder<SesameRequestContext>) { responder.withLock { $0 = value } }
    var current: RouterResponder<SesameRequestContext>? { responder.withLock { $0 } }
}

/// An `HTTPResponder` that forwards to the router once it exists; before that (the few
/// microseconds between bind and router construction) it answers 503.
struct DeferredResponder: HTTPResponder {
    typealias Context = SesameRequestContext
    let slot: RouterResponderSlot

    func respond(to request: Request, context: Context) async throws -> Response {
        guard let responder = slot.current else {
            return Response(status: .serviceUnavailable, headers: [.retryAfter: "1"])
        }
        return try await responder.respond(to: request, context: context)
    }
}

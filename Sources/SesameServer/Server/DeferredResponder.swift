import Hummingbird
import Synchronization

/// Holds the router's responder, built once the bound port (and so the default issuer) is known.
final class IssuerBox: Sendable {
    private let responder = Mutex<RouterResponder<SesameRequestContext>?>(nil)

    func set(_ value: RouterResponder<SesameRequestContext>) { responder.withLock { $0 = value } }
    var current: RouterResponder<SesameRequestContext>? { responder.withLock { $0 } }
}

/// An `HTTPResponder` that forwards to the router once it exists; before that (the few
/// microseconds between bind and router construction) it answers 503.
struct DeferredResponder: HTTPResponder {
    typealias Context = SesameRequestContext
    let box: IssuerBox

    func respond(to request: Request, context: Context) async throws -> Response {
        guard let responder = box.current else {
            return Response(status: .serviceUnavailable, headers: [.retryAfter: "1"])
        }
        return try await responder.respond(to: request, context: context)
    }
}

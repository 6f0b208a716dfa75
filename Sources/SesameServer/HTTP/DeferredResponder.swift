import SesameProtocol
import Hummingbird

/// The slot for the router's responder, filled once the bound port (and so the default issuer,
/// which the router's endpoints need) is known. A request that arrives in between waits for it
/// (a few milliseconds at start-up), so no request is ever answered before every route can be:
/// a client that reads discovery and then the key set never sees the second fail (issue #44).
final class RouterResponderSlot: Sendable {
    private enum State {
        case waiting([CheckedContinuation<RouterResponder<SesameRequestContext>?, Never>])
        case ready(RouterResponder<SesameRequestContext>)
        /// The server failed to start: waiting requests are answered 503.
        case failed
    }

    private let state = LockedState<State>(.waiting([]))

    /// Fills the slot and lets every waiting request through.
    func set(_ value: RouterResponder<SesameRequestContext>) { resolve(.ready(value)) }

    /// The router will never come (start-up failed): waiting requests get 503.
    func fail() { resolve(.failed) }

    private func resolve(_ final: State) {
        let waiters = state.withLock { state -> [CheckedContinuation<RouterResponder<SesameRequestContext>?, Never>] in
            guard case .waiting(let waiters) = state else { return [] }
            state = final
            return waiters
        }
        let responder: RouterResponder<SesameRequestContext>? = if case .ready(let value) = final { value } else { nil }
        for waiter in waiters { waiter.resume(returning: responder) }
    }

    /// The router, waiting for it while the server is still starting; `nil` when start-up failed.
    func current() async -> RouterResponder<SesameRequestContext>? {
        if case .ready(let responder) = state.withLock({ $0 }) { return responder }
        return await withCheckedContinuation { continuation in
            let now = state.withLock { state -> RouterResponder<SesameRequestContext>?? in
                switch state {
                case .ready(let responder): return .some(responder)
                case .failed: return .some(nil)
                case .waiting(var waiters):
                    waiters.append(continuation)
                    state = .waiting(waiters)
                    return .none
                }
            }
            if let now { continuation.resume(returning: now) }
        }
    }
}

/// An `HTTPResponder` that forwards to the router once it exists. Before that (the moments
/// between bind and router construction) a request waits; only when start-up failed is it
/// answered 503.
struct DeferredResponder: HTTPResponder {
    typealias Context = SesameRequestContext
    let slot: RouterResponderSlot

    func respond(to request: Request, context: Context) async throws -> Response {
        guard let responder = await slot.current() else {
            return Response(status: .serviceUnavailable, headers: [.retryAfter: "1"])
        }
        return try await responder.respond(to: request, context: context)
    }
}

import Foundation
import SesameProtocol

/// The app-level access token (client credentials, RFC 6749 §4.4) and the single request that
/// renews it: however many tasks ask at once, one token request is in flight, and every caller
/// gets its result. Refreshed ahead of expiry like user tokens.
final class AppTokenCache: Sendable {
    struct Token: Sendable {
        var value: String
        var expiresAt: Date?

        func isFresh(at now: Date, margin: TimeInterval) -> Bool {
            guard let expiresAt else { return true }
            return expiresAt.timeIntervalSince(now) > margin
        }
    }

    private struct State {
        var token: Token?
        var inFlight: Task<Result<Token, SesameError>, Never>?
    }

    private let state = LockedState(State())

    /// The cached token when fresh at `now`.
    func fresh(at now: Date, margin: TimeInterval) -> String? {
        state.withLock { $0.token?.isFresh(at: now, margin: margin) == true ? $0.token?.value : nil }
    }

    /// Joins the request in flight or starts `fetch`; the result is cached on success.
    func renew(_ fetch: @escaping @Sendable () async -> Result<Token, SesameError>) async throws(SesameError) -> String {
        let task = state.withLock { state -> Task<Result<Token, SesameError>, Never> in
            if let running = state.inFlight { return running }
            let task = Task { await fetch() }
            state.inFlight = task
            return task
        }
        let result = await task.value
        state.withLock { state in
            if case .success(let token) = result { state.token = token }
            state.inFlight = nil
        }
        return try result.get().value
    }

    /// Forgets the token (the API refused it).
    func clear() { state.withLock { $0.token = nil } }
}

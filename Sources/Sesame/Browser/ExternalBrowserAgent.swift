import Foundation
import SesameProtocol

/// A ``BrowserAgent`` for apps that open the browser themselves and receive the custom-scheme
/// callback in their own URL handler: `open` shows the authorization URL; the sign-in
/// completes when the app passes the callback to `SesameClient.handleRedirect(url:)`.
public final class ExternalBrowserAgent: BrowserAgent {
    private let open: @Sendable (URL) async throws -> Void

    /// - Parameter open: shows the URL in the system browser (never an embedded web view,
    ///   RFC 8252 §8.12).
    public init(open: @escaping @Sendable (URL) async throws -> Void) {
        self.open = open
    }

    /// Returns a session for the configured redirect URI; `ephemeral` is ignored (the app's `open`
    /// decides the browser). The session's `authorize` calls `open`, then waits for the callback
    /// the app passes to `SesameClient.handleRedirect(url:)`, or for cancellation.
    public func start(redirectURI: URL, ephemeral: Bool) async throws(SesameError) -> any BrowserAgentSession {
        Session(redirectURI: redirectURI, open: open)
    }

    final class Session: BrowserAgentSession, RedirectReceiving {
        private enum State {
            case idle
            case waiting(CheckedContinuation<Result<URL, SesameError>, Never>)
            case completed(Result<URL, SesameError>)
            case finished
        }

        let redirectURI: URL
        private let open: @Sendable (URL) async throws -> Void
        private let state = LockedState<State>(.idle)

        init(redirectURI: URL, open: @escaping @Sendable (URL) async throws -> Void) {
            self.redirectURI = redirectURI
            self.open = open
        }

        func authorize(_ authorizationURL: URL) async throws(SesameError) -> URL {
            do {
                try await open(authorizationURL)
            } catch {
                throw .technical(.platform("could not open the browser: \(error)"))
            }
            let result = await withTaskCancellationHandler {
                await withCheckedContinuation { (continuation: CheckedContinuation<Result<URL, SesameError>, Never>) in
                    let immediate: Result<URL, SesameError>? = state.withLock { state in
                        switch state {
                        case .idle:
                            state = .waiting(continuation)
                            return nil
                        case .completed(let result):
                            state = .finished
                            return result
                        case .waiting, .finished:
                            return .failure(.cancelled)
                        }
                    }
                    if let immediate { continuation.resume(returning: immediate) }
                }
            } onCancel: {
                complete(.failure(.cancelled))
            }
            return try result.get()
        }

        func receive(_ url: URL) { complete(.success(url)) }

        func cancel() async { complete(.failure(.cancelled)) }

        private func complete(_ result: Result<URL, SesameError>) {
            let continuation: CheckedContinuation<Result<URL, SesameError>, Never>? = state.withLock { state in
                switch state {
                case .idle:
                    state = .completed(result)
                    return nil
                case .waiting(let continuation):
                    state = .finished
                    return continuation
                case .completed, .finished:
                    return nil
                }
            }
            continuation?.resume(returning: result)
        }
    }
}

import Foundation
import Sesame
import SesameProtocol

#if os(macOS) || os(Linux) || os(FreeBSD) || os(OpenBSD)

/// One pending loopback authorization: a listening socket on 127.0.0.1 (or ::1) that exists from
/// ``LoopbackBrowserAgent/start(redirectURI:ephemeral:)`` until the redirect arrives, the session
/// is cancelled, times out, or is released (RFC 8252 §8.3: listen only while the request is
/// pending).
final class LoopbackBrowserSession: BrowserAgentSession {
    let redirectURI: URL
    private let listener: LoopbackListener
    private let outcome: LoopbackRedirectOutcome
    private let opener: any BrowserOpener
    private let timeout: TimeInterval
    private let used = LockedState(false)

    init(
        redirectURI: URL,
        listener: LoopbackListener,
        outcome: LoopbackRedirectOutcome,
        opener: any BrowserOpener,
        timeout: TimeInterval
    ) {
        self.redirectURI = redirectURI
        self.listener = listener
        self.outcome = outcome
        self.opener = opener
        self.timeout = timeout
    }

    deinit {
        // An abandoned session must not leave a port open.
        listener.close()
    }

    func authorize(_ authorizationURL: URL) async throws(SesameError) -> URL {
        let firstUse = used.withLock { used in
            defer { used = true }
            return !used
        }
        guard firstUse else {
            throw .technical(.platform("this loopback browser session was already used; start a new sign-in"))
        }
        let outcome = outcome
        let timeout = timeout
        let timer = Task {
            try? await Task.sleep(nanoseconds: UInt64(min(timeout, 86_400 * 365) * 1_000_000_000))
            guard !Task.isCancelled else { return }
            outcome.finish(.failure(.technical(.platform(
                "no browser response within \(Int(timeout)) seconds; sign in again and finish signing in in the browser"
            ))))
        }
        // The opener runs on its own: some launchers only return when the browser exits, and the
        // redirect may come back before they do.
        let opener = opener
        let opening = Task {
            guard !outcome.isFinished else { return }  // cancelled before authorize: open nothing
            do {
                try await opener.open(authorizationURL)
            } catch is CancellationError {
                return
            } catch {
                outcome.finish(.failure(.technical(.platform("could not open the browser: \(error)"))))
            }
        }
        let result = await outcome.wait()
        timer.cancel()
        if case .failure = result { opening.cancel() }
        await listener.closeAndWait()
        return try result.get()
    }

    func cancel() async {
        outcome.finish(.failure(.cancelled))
        await listener.closeAndWait()
    }
}

#endif

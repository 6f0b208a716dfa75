import Foundation
import SesameProtocol

/// A session that accepts redirects handed to `SesameClient.handleRedirect(url:)` (apps that
/// receive custom-scheme callbacks themselves).
protocol RedirectReceiving: Sendable {
    /// Completes the pending `authorize` call with `url`.
    func receive(_ url: URL)
}

/// The sign-in requests waiting for their redirect, keyed by `state`. Used to route URLs given
/// to `handleRedirect(url:)`: a URL whose redirect URI or `state` matches no pending request is
/// ignored, so apps can pass every deep link through it.
final class PendingAuthorizations: Sendable {
    struct Entry: Sendable {
        let redirectURI: URL
        let session: any BrowserAgentSession
    }

    private let entries = LockedState<[String: Entry]>([:])

    func register(state: String, redirectURI: URL, session: any BrowserAgentSession) {
        entries.withLock { $0[state] = Entry(redirectURI: redirectURI, session: session) }
    }

    func remove(state: String) {
        _ = entries.withLock { $0.removeValue(forKey: state) }
    }

    var count: Int { entries.withLock { $0.count } }

    /// Delivers `url` to the pending request it belongs to; `false` when it belongs to none.
    func deliver(_ url: URL) -> Bool {
        guard let parameters = AuthorizationResponse.parameters(of: url),
            let state = parameters[OAuthParameter.state]
        else { return false }
        let match: Entry? = entries.withLock { entries in
            for (pendingState, entry) in entries
            where ConstantTime.equals(pendingState, state)
                && AuthorizationResponse.matches(url, redirectURI: entry.redirectURI)
            {
                return entry
            }
            return nil
        }
        guard let match, let receiver = match.session as? any RedirectReceiving else { return false }
        receiver.receive(url)
        return true
    }
}

import Foundation

/// Access tokens for the app's APIs (RFC 8707; ``SesameConfiguration/apis``), per account and
/// API, kept in memory only: the refresh token that renews them is the session's, persisted as
/// before. Each token belongs to the session it came from (the registry's generation), so a
/// session that ended or was replaced by a new sign-in never gets its predecessor's tokens.
final class APITokenCache: Sendable {
    struct Token: Sendable {
        var value: String
        var expiresAt: Date?
        /// The session generation it was issued in.
        var generation: UInt64
    }

    private struct Key: Hashable {
        var account: Account.ID
        var api: String
    }

    private let tokens = LockedState<[Key: Token]>([:])

    /// The token for `api` of the session `generation` when it is still usable `margin` seconds
    /// after `now`.
    func fresh(account: Account.ID, generation: UInt64, api: URL, at now: Date, margin: TimeInterval) -> String? {
        tokens.withLock { tokens in
            guard let token = tokens[Key(account: account, api: api.absoluteString)], token.generation == generation,
                StoredSession.isFresh(expiresAt: token.expiresAt, at: now, margin: margin)
            else { return nil }
            return token.value
        }
    }

    func store(_ token: Token, account: Account.ID, api: URL) {
        tokens.withLock { $0[Key(account: account, api: api.absoluteString)] = token }
    }

    /// Forgets `value` if it is the token held for `api` (the API refused it).
    func discard(_ value: String, account: Account.ID, api: URL) {
        tokens.withLock { tokens in
            let key = Key(account: account, api: api.absoluteString)
            if tokens[key]?.value == value { tokens[key] = nil }
        }
    }
}

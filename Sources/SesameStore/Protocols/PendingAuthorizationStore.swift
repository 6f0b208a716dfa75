import Foundation

/// Authorization requests held for a browser while the user signs in (the hosted login, its
/// second factor, a passkey, a provider's "Continue with …", the sign-up and reset detours, the
/// device page's own sign-in). From the moment `/authorize` accepts a request (or takes a pushed
/// one) the request lives here; the pages carry only an opaque reference, whose digest is the
/// key, and the row is bound to the browser's pre-session cookie. The code is issued after
/// ``completePendingAuthorization(digest:browserBinding:now:)`` wins, once, on any process.
public protocol PendingAuthorizationStore: Sendable {
    /// Stores a held request until `record.expiresAt`.
    func insertPendingAuthorization(_ record: PendingAuthorizationRecord) async throws

    /// The request held under `digest` for the browser `browserBinding`, when it has neither
    /// expired at `now` nor been completed; `nil` otherwise (also for another browser's).
    func pendingAuthorization(digest: String, browserBinding: String, now: Date) async throws
        -> PendingAuthorizationRecord?

    /// Marks the request completed (its code is about to be issued): `true` for exactly one of
    /// any number of concurrent callers on any process, `false` when it was completed before,
    /// has expired, or belongs to another browser.
    func completePendingAuthorization(digest: String, browserBinding: String, now: Date) async throws -> Bool
}

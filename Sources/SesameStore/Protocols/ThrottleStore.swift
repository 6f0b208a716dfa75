import Foundation

/// Password-guessing counters shared by every server process of a deployment: failures per
/// login name (stored as a digest) or client address, and the lockout they earned. Five wrong
/// passwords spread over two processes lock a name exactly as on one. Each operation is one
/// statement, so concurrent failures on several processes are all counted.
public protocol ThrottleStore: Sendable {
    /// The latest lockout among `keys` that has not ended at `now`, or `nil`.
    func throttleLock(keys: [String], now: Date) async throws -> Date?
    /// Counts one failure of `key` at `now` and returns the count: failures older than
    /// `forgetBefore` (whose lockout has ended) are forgotten first, and with
    /// `restartAfterLockout` (an address's window) every failure of a key whose lockout has
    /// ended.
    func recordThrottleFailure(key: String, now: Date, forgetBefore: Date, restartAfterLockout: Bool) async throws -> Int
    /// Locks `key` until `until` (a later lock is kept).
    func lockThrottle(key: String, until: Date) async throws
    /// Forgets `key` (a successful sign-in).
    func clearThrottle(key: String) async throws
    /// Takes back one failure of `key` counted before its attempt was checked, when the attempt
    /// turned out right (never below zero; a running lockout stays).
    func forgiveThrottleFailure(key: String) async throws
    /// Claims the one attempt a key past its threshold may make once its lockout has ended: locks
    /// `key` until `until` when it had a lockout that ended at `now`, and is `true` for exactly
    /// one of any number of concurrent callers on any process.
    func claimThrottleProbe(key: String, now: Date, until: Date) async throws -> Bool
}

extension ThrottleStore {
    /// ``recordThrottleFailure(key:now:forgetBefore:restartAfterLockout:)`` for a key whose count
    /// goes on after a lockout (a login name's, whose lockouts double).
    public func recordThrottleFailure(key: String, now: Date, forgetBefore: Date) async throws -> Int {
        try await recordThrottleFailure(key: key, now: now, forgetBefore: forgetBefore, restartAfterLockout: false)
    }
}

import Foundation

/// Password-guessing counters shared by every server process of a deployment: failures per
/// login name (stored as a digest) or client address, and the lockout they earned. Five wrong
/// passwords spread over two processes lock a name exactly as on one. Each operation is one
/// statement, so concurrent failures on several processes are all counted.
public protocol ThrottleStore: Sendable {
    /// The latest lockout among `keys` that has not ended at `now`, or `nil`.
    func throttleLock(keys: [String], now: Date) async throws -> Date?
    /// Counts one failure of `key` at `now` and returns the count: failures older than
    /// `forgetBefore` (whose lockout has ended) are forgotten first.
    func recordThrottleFailure(key: String, now: Date, forgetBefore: Date) async throws -> Int
    /// Locks `key` until `until` (a later lock is kept).
    func lockThrottle(key: String, until: Date) async throws
    /// Forgets `key` (a successful sign-in).
    func clearThrottle(key: String) async throws
    /// Takes back one failure of `key` counted before its attempt was checked, when the attempt
    /// turned out right (never below zero; a running lockout stays).
    func forgiveThrottleFailure(key: String) async throws
}

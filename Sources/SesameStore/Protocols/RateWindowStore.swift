import Foundation

/// Fixed-window request counters shared by every server process of a deployment (the account
/// mail quota): each call counts one request in the key's current window and says where the
/// window stands, in one statement, so concurrent requests on several processes are all counted.
public protocol RateWindowStore: Sendable {
    /// Counts one request for `key` at `now` in a window of `length`; a window older than that
    /// starts over. Returns the count including this request and when the window started.
    func countRequest(key: String, now: Date, window length: TimeInterval) async throws -> (count: Int, windowStart: Date)

    /// Adds `count` requests to `key`'s window that started at `windowStart` (windows aligned to
    /// their length, so every process names the same one) and returns the window's total across
    /// all processes; `nil` when the stored window is a later one (this count came too late).
    func addRequests(key: String, count: Int, windowStart: Date) async throws -> Int?
}

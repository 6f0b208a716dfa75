import SesameProtocol
import Foundation
import Logging
import SesameStore

/// Fixed-window request counters for ``RateLimitPolicy``, decided in memory (a dictionary
/// lookup under a lock (`LockedState`)) and shared with the other processes of a deployment through the
/// store (``RateWindowStore/addRequests(key:count:windowStart:)``):
/// - the first request of a key in a window, in this process, is counted in the store at once,
///   so the process starts from the deployment's count (one statement per key and window, not
///   per request);
/// - after that, requests are counted in memory, and ``synchronize()``, which a background
///   service calls every second, adds them to the store and learns the other processes' counts
///   from the totals;
/// - a request of a window whose count of the others is older than ``freshness`` (a key that
///   was quiet here, so ``synchronize()`` skipped it) is counted in the store again, like the
///   first, so a process never decides from a stale count.
///
/// A limit can so be overshot by at most what the other processes admitted in the last
/// ``freshness``; one process alone is exact. Without the store (the database is away), decisions stay local.
///
/// Windows are aligned to their length (`floor(now / window) * window`), so all processes name
/// the same window. Memory is bounded by ``RateLimitPolicy/maximumTrackedKeys``: past it,
/// ended windows and then the least used are dropped.
final package class RateLimiter: Sendable {
    /// The outcome of ``admit(_:limit:)``.
    package enum Decision: Sendable, Equatable {
        /// Counted; `remaining` requests are left in the window, which resets in `reset` seconds.
        case admitted(remaining: Int, reset: Int)
        /// Over the limit; retry after `retryAfter` seconds (the window's end). `first`: the
        /// first refusal of this key in this window, in this process (what the audit log records).
        case refused(retryAfter: Int, first: Bool)
    }

    private struct Window {
        var start: Date
        var length: TimeInterval
        var limit: Int
        /// Requests admitted here in this window.
        var local = 0
        /// Of those, not yet added to the store.
        var pending = 0
        /// Requests the other processes reported for this window (at the last synchronization).
        var others = 0
        /// Requests refused here in this window.
        var refusals = 0
        /// When `others` was last read from the store.
        var learnedAt: Date
    }

    private let policy: RateLimitPolicy
    private let now: @Sendable () -> Date
    private let shared: (any RateWindowStore)?
    private let logger: Logger
    private let windows = LockedState<[String: Window]>([:])
    /// How old the count of the other processes may be for a decision made in memory: two of
    /// ``synchronizer(interval:)``'s default intervals, so a key in use stays in memory.
    package let freshness: TimeInterval

    package init(
        policy: RateLimitPolicy, now: @escaping @Sendable () -> Date, shared: (any RateWindowStore)?, logger: Logger,
        freshness: TimeInterval = 2
    ) {
        self.freshness = freshness
        self.policy = policy
        self.now = now
        self.shared = shared
        self.logger = logger
    }

    /// Counts one request against `key` (a class and an address or client id) unless it is
    /// over `limit`.
    package func admit(_ key: String, limit: RateLimitPolicy.Limit) async -> Decision {
        let (now, start, reset) = moment(of: limit)
        let maximum = policy.maximumTrackedKeys
        if let shared, windows.withLock({ !isFresh($0[key], start: start, now: now) }),
            let total = try? await shared.addRequests(key: Self.sharedKey(key), count: 1, windowStart: start)
        {
            // Counted in the store already (not pending); the rest of the total is the others'.
            return windows.withLock { windows in
                var window = windows[key].flatMap { $0.start == start ? $0 : nil }
                    ?? Window(start: start, length: limit.window, limit: limit.requests, learnedAt: now)
                window.local += 1
                window.others = max(0, total - (window.local - window.pending))
                window.learnedAt = now
                // The deployment's count with this request: the total and what this process
                // admitted since its last synchronization (not in the total yet).
                let used = window.local + window.others
                let refused = used > limit.requests
                if refused { window.refusals += 1 }
                if windows[key] == nil, windows.count >= maximum { Self.evict(&windows, now: now, maximum: maximum) }
                windows[key] = window
                guard !refused else { return .refused(retryAfter: reset, first: window.refusals == 1) }
                return .admitted(remaining: limit.requests - used, reset: reset)
            }
        }
        return windows.withLock { windows in
            Self.countInMemory(&windows, key: key, start: start, limit: limit, reset: reset, now: now, maximum: maximum)
        }
    }

    /// ``admit(_:limit:)`` for a caller that cannot wait (a request answered on an event loop):
    /// the decision when it is made in memory and admits; `nil` when it would need the store (in
    /// a deployment that shares counts, a window new to this process or one whose count of the
    /// others is older than ``freshness``) or would refuse. Nothing
    /// is counted for `nil`: the caller then goes through ``admit(_:limit:)``, which counts the
    /// request, refuses it and reports the first refusal.
    package func admitInMemory(_ key: String, limit: RateLimitPolicy.Limit) -> Decision? {
        let (now, start, reset) = moment(of: limit)
        let maximum = policy.maximumTrackedKeys
        let shared = shared != nil
        return windows.withLock { windows in
            let window = windows[key].flatMap { $0.start == start ? $0 : nil }
            if shared, !isFresh(window, start: start, now: now) { return nil }
            if let window, window.local + window.others >= limit.requests { return nil }
            return Self.countInMemory(
                &windows, key: key, start: start, limit: limit, reset: reset, now: now, maximum: maximum)
        }
    }

    /// Whether `window` is of the window starting at `start` and learned the others' count within
    /// ``freshness`` of `now` (always, without a shared store).
    private func isFresh(_ window: Window?, start: Date, now: Date) -> Bool {
        guard let window, window.start == start else { return false }
        return shared == nil || now.timeIntervalSince(window.learnedAt) <= freshness
    }

    /// Now, the start of `limit`'s aligned window now, and the seconds until it resets (at least 1).
    private func moment(of limit: RateLimitPolicy.Limit) -> (now: Date, start: Date, reset: Int) {
        let now = now()
        let start = Self.windowStart(now, length: limit.window)
        return (now, start, max(1, Int((start.addingTimeInterval(limit.window).timeIntervalSince(now)).rounded(.up))))
    }

    /// Counts one request of `key` in this process's window starting at `start`, or refuses it.
    private static func countInMemory(
        _ windows: inout [String: Window], key: String, start: Date, limit: RateLimitPolicy.Limit, reset: Int,
        now: Date, maximum: Int
    ) -> Decision {
        var window = windows[key] ?? Window(start: start, length: limit.window, limit: limit.requests, learnedAt: now)
        if window.start != start {
            window = Window(start: start, length: limit.window, limit: limit.requests, learnedAt: now)
        }
        let used = window.local + window.others
        guard used < limit.requests else {
            window.refusals += 1
            if windows[key] != nil { windows[key] = window }
            return .refused(retryAfter: reset, first: window.refusals == 1)
        }
        window.local += 1
        window.pending += 1
        if windows[key] == nil, windows.count >= maximum { evict(&windows, now: now, maximum: maximum) }
        windows[key] = window
        return .admitted(remaining: limit.requests - used - 1, reset: reset)
    }

    /// Counts one event of `key` in the aligned window of `length` seconds, without a limit, and
    /// returns the deployment's count so far in that window (this process's exact count plus the
    /// others' at the last synchronization). The ``ChallengeGate``'s pressure counters.
    package func count(_ key: String, window length: TimeInterval) async -> Int {
        let limit = RateLimitPolicy.Limit(Self.unlimited, per: length)
        guard case .admitted(let remaining, _) = await admit(key, limit: limit) else { return Self.unlimited }
        return Self.unlimited - remaining
    }

    /// The deployment's count of `key` in the current window of `length` seconds, without
    /// counting anything (0 when the key has no window here).
    package func current(_ key: String, window length: TimeInterval) -> Int {
        let start = Self.windowStart(now(), length: length)
        return windows.withLock { windows in
            guard let window = windows[key], window.start == start else { return 0 }
            return window.local + window.others
        }
    }

    private static let unlimited = Int(Int32.max)

    /// Adds the requests admitted here since the last call to the store and takes the other
    /// processes' counts from the totals (no-op without a shared store): for keys with new
    /// requests, and for keys at half their limit or more even without (so a process that stopped
    /// admitting still learns what the others admit). Keys with the most new requests go first;
    /// at most `batch` keys per call.
    package func synchronize(batch: Int = 1000) async {
        guard let shared else { return }
        let now = now()
        let due: [(key: String, start: Date, pending: Int)] = windows.withLock { windows in
            var due: [(key: String, start: Date, pending: Int)] = []
            for (key, window) in windows where window.start.addingTimeInterval(window.length) > now {
                if window.pending > 0 || 2 * (window.local + window.others) >= window.limit {
                    due.append((key, window.start, window.pending))
                }
            }
            due.sort { $0.pending > $1.pending }
            due = Array(due.prefix(batch))
            for entry in due { windows[entry.key]?.pending -= entry.pending }
            return due
        }
        for entry in due {
            do {
                guard let total = try await shared.addRequests(
                    key: Self.sharedKey(entry.key), count: entry.pending, windowStart: entry.start)
                else { continue }
                windows.withLock { windows in
                    guard var window = windows[entry.key], window.start == entry.start else { return }
                    // The total holds every request of ours added so far; the rest are the others'.
                    window.others = max(0, total - (window.local - window.pending))
                    window.learnedAt = now
                    windows[entry.key] = window
                }
            } catch {
                // The database is away: keep the count to add it next time; decide locally meanwhile.
                windows.withLock { windows in
                    if windows[entry.key]?.start == entry.start { windows[entry.key]?.pending += entry.pending }
                }
                logger.debug("rate limit counters not shared this time", metadata: ["reason": "\(error)"])
                return
            }
        }
    }

    /// The stored key: a digest (no address in clear in the database), apart from the mail quota's.
    private static func sharedKey(_ key: String) -> String { "rl:" + SecretDigest.of(key) }

    /// The aligned start of the window of `length` seconds that holds `date`.
    package static func windowStart(_ date: Date, length: TimeInterval) -> Date {
        Date(timeIntervalSince1970: (date.timeIntervalSince1970 / length).rounded(.down) * length)
    }

    /// Drops ended windows; when that is not enough, the half with the fewest requests (a flood
    /// of distinct addresses, one request each, goes first; the heavy senders stay counted).
    private static func evict(_ windows: inout [String: Window], now: Date, maximum: Int) {
        windows = windows.filter { $0.value.start.addingTimeInterval($0.value.length) > now }
        guard windows.count >= maximum else { return }
        let kept = windows.sorted { $0.value.local + $0.value.others > $1.value.local + $1.value.others }
            .prefix(maximum / 2)
        windows = Dictionary(uniqueKeysWithValues: kept.map { ($0.key, $0.value) })
    }

    /// How many keys are remembered (tests of the bound).
    package var trackedKeyCount: Int { windows.withLock { $0.count } }

    /// The service that shares the counts once a second (``synchronize(batch:)``).
    package func synchronizer(interval: Duration = .seconds(1)) -> PeriodicService {
        PeriodicService(interval: interval) { [self] in await synchronize() }
    }
}

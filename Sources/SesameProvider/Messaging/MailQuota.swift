import SesameProtocol
import SesameStore
import Foundation

/// Limits the account mail a sender can cause (sign-up confirmation, password reset, email
/// change codes), so that neither one mailbox nor the server's mail reputation can be flooded
/// through the account APIs or the hosted pages:
/// - **per recipient and purpose**: at most ``Policy/perRecipient`` messages per
///   ``Policy/window``. Past it, nothing is sent and the code already in the mailbox stays the
///   valid one; the caller answers exactly as if it had sent (no enumeration, no signal).
/// - **per client address** (the same key as ``LoginThrottle``: IPv6 by /64): at most
///   ``Policy/perSource`` requests that may send mail per window, counted whether or not the
///   address exists, so the answer past the limit (429 `rate_limited` with `Retry-After`)
///   reveals nothing either.
///
/// The counts live in the store (``RateWindowStore``) when the server has one, so every process
/// of a deployment shares them; otherwise in memory behind a lock (`LockedState`), bounded to
/// ``Policy/maximumEntries`` keys (the oldest window is dropped first).
public final class MailQuota: Sendable {
    public struct Policy: Sendable {
        public var window: TimeInterval = 15 * 60
        /// A person asking for a code again because the first has not arrived yet: three.
        public var perRecipient = 3
        /// A whole office behind one NAT resetting passwords: forty.
        public var perSource = 40
        public var maximumEntries = 100_000

        public init() {}
    }

    private struct Window {
        var start: Date
        var count: Int
    }

    private let policy: Policy
    private let now: @Sendable () -> Date
    private let shared: (any RateWindowStore)?
    private let windows = LockedState<[String: Window]>([:])

    package init(policy: Policy = Policy(), now: @escaping @Sendable () -> Date = Date.init, shared: (any RateWindowStore)? = nil) {
        self.policy = policy
        self.now = now
        self.shared = shared
    }

    /// Counts one mail-sending request from `source`; the seconds to wait when it is over the
    /// limit, `nil` when admitted (or when the address is unknown, e.g. a Unix socket).
    package func admitRequest(from source: String?) async throws -> Int? {
        guard let source else { return nil }
        return try await take("source\u{0}\(source)", limit: policy.perSource)
    }

    /// `true` when a message of `purpose` may go to `recipient` now (and counts it).
    package func admitMessage(to recipient: String, purpose: String) async throws -> Bool {
        try await take("recipient\u{0}\(purpose)\u{0}\(recipient.lowercased())", limit: policy.perRecipient) == nil
    }

    private func take(_ key: String, limit: Int) async throws -> Int? {
        guard let shared else { return takeInMemory(key, limit: limit) }
        let now = now()
        // The stored key is a digest: no address in clear in the counters, and no byte a
        // database's text type refuses (the in-memory keys separate their parts with NUL).
        let (count, start) = try await shared.countRequest(
            key: "mail:" + SecretDigest.of(key), now: now, window: policy.window)
        guard count > limit else { return nil }
        // Whole seconds; the stored start may differ from the clock by a rounding error.
        let remaining = policy.window - max(0, now.timeIntervalSince(start))
        return max(1, Int((remaining - 0.001).rounded(.up)))
    }

    private func takeInMemory(_ key: String, limit: Int) -> Int? {
        let now = now()
        let policy = policy
        return windows.withLock { windows in
            var window = windows[key] ?? Window(start: now, count: 0)
            if now.timeIntervalSince(window.start) >= policy.window { window = Window(start: now, count: 0) }
            guard window.count < limit else {
                return max(1, Int((policy.window - now.timeIntervalSince(window.start)).rounded(.up)))
            }
            window.count += 1
            if windows[key] == nil, windows.count >= policy.maximumEntries { Self.evictOldest(&windows, now: now, policy: policy) }
            windows[key] = window
            return nil
        }
    }

    /// Drops expired windows, or the oldest half when none has expired.
    private static func evictOldest(_ windows: inout [String: Window], now: Date, policy: Policy) {
        windows = windows.filter { now.timeIntervalSince($0.value.start) < policy.window }
        guard windows.count >= policy.maximumEntries else { return }
        let cutoff = windows.values.map(\.start).sorted()[windows.count / 2]
        windows = windows.filter { $0.value.start > cutoff }
    }

    /// How many keys are remembered (tests of the bound).
    package var trackedKeyCount: Int { windows.withLock { $0.count } }
}

import SesameProtocol
import Crypto
import Foundation
import SesameStore

/// How hard password guessing is throttled (``LoginThrottle``). The defaults follow the OWASP
/// Authentication Cheat Sheet ("Account Lockout": a failure threshold, an observation window and
/// a lockout that ends by itself, growing exponentially rather than locking the account for good)
/// and NIST SP 800-63B §5.2.2 (rate limiting failed authentication attempts on an account; with
/// the defaults a login name gets about 100 failures a day).
///
/// - Per login name: after ``failuresBeforeLockout`` (5) consecutive failures, each less than
///   ``failureWindow`` (15 minutes) after the previous failure or lockout, further attempts are
///   refused for ``initialLockout`` (30 s); every further failure doubles it (60 s, 120 s, …) up
///   to ``maximumLockout`` (15 minutes). A success resets the name. A quiet ``failureWindow``
///   after the last failure or lockout forgets it.
/// - Per client address: ``failuresPerAddress`` (50) failures within ``failureWindow`` (counted
///   from the first one) refuse every further attempt from that address for ``addressLockout``
///   (15 minutes), whatever the name. Successes do not reset it.
/// - At most ``maximumTrackedKeys`` (100,000) names and addresses are remembered; beyond that the
///   least recently failed are forgotten first.
public struct LoginThrottlePolicy: Sendable, Equatable {
    /// Consecutive failures of one login name before it is locked out. Default 5.
    public var failuresBeforeLockout: Int
    /// How long failures are remembered: the gap after which a login name starts over, and the
    /// counting window of an address. Default 15 minutes.
    public var failureWindow: TimeInterval
    /// The first lockout of a login name. Default 30 seconds.
    public var initialLockout: TimeInterval
    /// The cap of a login name's doubling lockout. Default 15 minutes.
    public var maximumLockout: TimeInterval
    /// Failures from one client address within ``failureWindow`` before it is locked out.
    /// Default 50.
    public var failuresPerAddress: Int
    /// How long an address is locked out. Default 15 minutes.
    public var addressLockout: TimeInterval
    /// Bound on remembered login names plus addresses, so memory cannot be exhausted.
    /// Default 100,000.
    public var maximumTrackedKeys: Int

    public init(
        failuresBeforeLockout: Int = 5, failureWindow: TimeInterval = 15 * 60, initialLockout: TimeInterval = 30,
        maximumLockout: TimeInterval = 15 * 60, failuresPerAddress: Int = 50, addressLockout: TimeInterval = 15 * 60,
        maximumTrackedKeys: Int = 100_000
    ) {
        self.failuresBeforeLockout = failuresBeforeLockout
        self.failureWindow = failureWindow
        self.initialLockout = initialLockout
        self.maximumLockout = maximumLockout
        self.failuresPerAddress = failuresPerAddress
        self.addressLockout = addressLockout
        self.maximumTrackedKeys = maximumTrackedKeys
    }

    /// The lockout of a login name after `failures` consecutive failures: `nil` below
    /// ``failuresBeforeLockout``, then ``initialLockout`` · 2^(failures − threshold), at most
    /// ``maximumLockout`` (defaults: 5 → 30 s, 6 → 60 s, 7 → 120 s, 8 → 240 s, 9 → 480 s,
    /// 10 and more → 900 s).
    public func lockout(afterFailures failures: Int) -> TimeInterval? {
        let threshold = max(1, failuresBeforeLockout)
        guard failures >= threshold else { return nil }
        let doublings = Double(min(failures - threshold, 60))
        return min(initialLockout * pow(2, doublings), maximumLockout)
    }
}

/// Throttles password guessing at every place a password is checked (hosted login page,
/// `/authorize-challenge` sign-in and re-authentication, password change, account deletion),
/// through ``CredentialVerifier/checkPassword(_:attempt:user:)``.
///
/// Follows the OWASP Authentication Cheat Sheet ("Account Lockout", "Authentication and Error
/// Messages") and NIST SP 800-63B §5.2.2; see ``LoginThrottlePolicy`` for the numbers:
/// - Keys: the **account** when the typed name (username or email, any case) belongs to one,
///   so every form of the name shares one count and a locked account stays locked whichever
///   alias is typed; otherwise the **name as typed**, normalized (trimmed, lowercased, Unicode
///   NFC). Both are kept only as SHA-256 digests. An unknown name is throttled exactly like a
///   real one (the same count, the same answers), so a refusal says nothing about whether it
///   exists; what per-account counting does reveal is that two names lock together, which is
///   the price of an alias that cannot be used to bypass a lockout. Separately, the **client address**: the TCP
///   peer, or behind a configured trusted proxy the client it names (``TrustedProxies``); IPv6
///   clients are keyed by their /64 prefix (one subscriber usually owns a whole /64), IPv4-mapped
///   IPv6 addresses by the IPv4 address. Without an IP address (a Unix socket) only the name
///   counts.
/// - A refused attempt never reaches the password hasher: no scrypt work, no timing that depends
///   on the password, no hint whether it would have been right. The caller answers HTTP 429 with
///   `Retry-After` (RFC 6585 §4, RFC 9110 §10.2.3).
/// - Attempts are admitted before the hash is checked and counted while in flight, so parallel
///   requests cannot overshoot the limits: a name below its threshold admits at most the
///   remaining failures at once, a name past it one attempt at a time.
/// - State is in memory (a restart forgets it) behind a lock (`LockedState`); operations are O(1) amortized
///   and never wait. The clock is the server's injectable one.
final package class LoginThrottle: Sendable {
    /// What is counted: a login name (its SHA-256 digest) or a client address.
    package enum Key: Hashable, Sendable {
        case login(NameDigest)
        case address(String)
    }

    /// A SHA-256 digest as four words: fixed size, and cheap to hash and compare (the digest
    /// type's own `==` is constant-time, which a dictionary key does not need).
    package struct NameDigest: Hashable, Sendable {
        package let words: (UInt64, UInt64, UInt64, UInt64)

        package init(_ digest: SHA256Digest) {
            var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
            digest.withUnsafeBytes { bytes in
                withUnsafeMutableBytes(of: &words) {
                    $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes.prefix(32)))
                }
            }
            self.words = words
        }

        package static func == (lhs: NameDigest, rhs: NameDigest) -> Bool {
            lhs.words.0 == rhs.words.0 && lhs.words.1 == rhs.words.1 && lhs.words.2 == rhs.words.2
                && lhs.words.3 == rhs.words.3
        }

        package func hash(into hasher: inout Hasher) {
            hasher.combine(words.0)
            hasher.combine(words.1)
            hasher.combine(words.2)
            hasher.combine(words.3)
        }
    }

    /// An admitted attempt; hand it back to ``finish(_:_:)`` exactly once.
    package struct Ticket: Sendable {
        /// What the attempt counts against: the login name or account, and the address.
        package let keys: [Key]
    }

    package enum Admission: Sendable {
        case admitted(Ticket)
        /// Refused without checking the password; retry after this many seconds (≥ 1).
        case refused(retryAfter: Int)
    }

    package enum Outcome: Sendable {
        /// The password was right: the login name starts over.
        case succeeded
        /// The password was wrong (or the user unknown).
        case failed
        /// The check did not happen (e.g. the store failed): nothing is counted.
        case abandoned
    }

    package let policy: LoginThrottlePolicy
    package let now: @Sendable () -> Date
    private let state = LockedState(State())

    package init(policy: LoginThrottlePolicy = LoginThrottlePolicy(), now: @escaping @Sendable () -> Date = { Date() }) {
        self.policy = policy
        self.now = now
    }

    /// Admits an attempt for `login` from `address` (see ``ClientAddressKey``), or refuses it.
    package func admit(login: String, address: String?) -> Admission {
        admit(Self.loginKey(login), address: address)
    }

    /// Admits an attempt for the account with identifier `accountID` (whatever name was typed
    /// for it) from `address`, or refuses it.
    package func admit(accountID: String, address: String?) -> Admission {
        admit(Self.accountKey(accountID), address: address)
    }

    /// Admits an attempt against `subject` (``loginKey(_:)`` or ``accountKey(_:)``) from `address`.
    package func admit(_ subject: Key, address: String?) -> Admission {
        let keys = Self.keys(subject, address: address)
        let now = now()
        let policy = policy
        return state.withLock { state in
            var wait: TimeInterval = 0
            for key in keys {
                if let refusal = state.refusal(key, now: now, policy: policy) { wait = max(wait, refusal) }
            }
            if wait > 0 { return .refused(retryAfter: max(1, Int(wait.rounded(.up)))) }
            for key in keys { state.update(key, now: now, policy: policy) { $0.inFlight += 1 } }
            return .admitted(Ticket(keys: keys))
        }
    }

    /// Records how an admitted attempt ended.
    package func finish(_ ticket: Ticket, _ outcome: Outcome) {
        let now = now()
        let policy = policy
        state.withLock { state in
            for key in ticket.keys { state.finish(key, outcome, now: now, policy: policy) }
        }
    }

    /// What an attempt against `subject` from `address` counts against.
    package static func keys(_ subject: Key, address: String?) -> [Key] {
        [subject] + (address.map { [Key.address($0)] } ?? [])
    }

    /// Forgets what this process counted for `keys`: the shared counters said they are not
    /// locked (an administrator cleared them, issue #47), so this process's memory must not
    /// keep refusing.
    package func forget(_ keys: [Key]) {
        state.withLock { state in
            for key in keys { state.entries[key] = nil }
        }
    }

    /// The name of `key` in the shared counters (``ThrottleStore``).
    package static func sharedName(_ key: Key) -> String {
        switch key {
        case .login(let digest):
            let words = [digest.words.0, digest.words.1, digest.words.2, digest.words.3]
            return "login:" + words.map { String($0, radix: 16) }.joined(separator: ".")
        case .address(let address):
            return "address:" + address
        }
    }

    /// How many names and addresses are remembered (tests of the bound).
    package var trackedKeyCount: Int { state.withLock { $0.entries.count } }

    /// The key of a login name as typed: trimmed, lowercased, NFC, hashed.
    package static func loginKey(_ login: String) -> Key {
        let normalized = login.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
            .precomposedStringWithCanonicalMapping
        return .login(NameDigest(SHA256.hash(data: Data(normalized.utf8))))
    }

    /// The key of an account: its identifier as stored (not case-folded), hashed, in a space of
    /// its own so that no typed name can share it.
    package static func accountKey(_ accountID: String) -> Key {
        .login(NameDigest(SHA256.hash(data: Data("account\u{0}\(accountID)".utf8))))
    }

}

// MARK: State

extension LoginThrottle {
    fileprivate struct Entry {
        /// Login name: consecutive failures. Address: failures in the window from `windowStart`.
        var failures = 0
        /// Admitted attempts whose password check has not finished.
        var inFlight = 0
        var windowStart: Date
        var lastFailure: Date?
        var lockedUntil: Date?
        /// Position in the eviction queue; a queue slot with another value is stale.
        var sequence: UInt64 = 0
    }

    fileprivate struct State {
        var entries: [Key: Entry] = [:]
        /// Keys in order of creation or last failure, oldest first from `head`.
        var queue: [(key: Key, sequence: UInt64)] = []
        var head = 0
        var nextSequence: UInt64 = 1

        /// Seconds until `key` may try again, or `nil` when it may try now. Forgets an entry
        /// whose failures have expired.
        mutating package func refusal(_ key: Key, now: Date, policy: LoginThrottlePolicy) -> TimeInterval? {
            guard var entry = entries[key] else { return nil }
            entry.expire(key, now: now, policy: policy)
            if entry.isIdle {
                entries[key] = nil
                return nil
            }
            entries[key] = entry
            if let locked = entry.lockedUntil, locked > now { return locked.timeIntervalSince(now) }
            let limit: Int
            switch key {
            case .login: limit = max(max(1, policy.failuresBeforeLockout), entry.failures + 1)
            case .address: limit = max(1, policy.failuresPerAddress)
            }
            // Only in-flight checks can fill the rest: they finish within milliseconds.
            return entry.failures + entry.inFlight >= limit ? 1 : nil
        }

        mutating package func finish(_ key: Key, _ outcome: Outcome, now: Date, policy: LoginThrottlePolicy) {
            guard var entry = entries[key] else { return }
            entry.inFlight = max(0, entry.inFlight - 1)
            entry.expire(key, now: now, policy: policy)
            switch (outcome, key) {
            case (.succeeded, .login):
                entry.failures = 0
                entry.lastFailure = nil
                entry.lockedUntil = nil
            case (.failed, .login):
                entry.failures += 1
                entry.lastFailure = now
                if let lockout = policy.lockout(afterFailures: entry.failures) {
                    entry.lockedUntil = now.addingTimeInterval(lockout)
                }
            case (.failed, .address):
                if entry.failures == 0 { entry.windowStart = now }
                entry.failures += 1
                entry.lastFailure = now
                if entry.failures >= max(1, policy.failuresPerAddress) {
                    entry.lockedUntil = now.addingTimeInterval(policy.addressLockout)
                }
            case (.succeeded, .address), (.abandoned, _):
                break
            }
            if entry.isIdle {
                entries[key] = nil
                return
            }
            entries[key] = entry
            if outcome == .failed { requeue(key, now: now, policy: policy) }
        }

        /// Applies `change` to the entry of `key`, creating it (and making room) when missing.
        mutating package func update(_ key: Key, now: Date, policy: LoginThrottlePolicy, _ change: (inout Entry) -> Void) {
            if entries[key] != nil {
                change(&entries[key]!)
                return
            }
            var entry = Entry(windowStart: now)
            change(&entry)
            entries[key] = entry
            requeue(key, now: now, policy: policy)
        }

        /// Moves `key` to the young end of the eviction queue, then keeps the bound.
        private mutating func requeue(_ key: Key, now: Date, policy: LoginThrottlePolicy) {
            let sequence = nextSequence
            nextSequence += 1
            entries[key]?.sequence = sequence
            queue.append((key, sequence))
            evict(now: now, policy: policy)
            compact()
        }

        /// Forgets the oldest entries while more than the bound are remembered. Entries with a
        /// check in flight are moved to the young end instead (at most one pass).
        private mutating func evict(now: Date, policy: LoginThrottlePolicy) {
            let bound = max(1, policy.maximumTrackedKeys)
            var budget = queue.count - head
            while entries.count > bound, head < queue.count, budget > 0 {
                budget -= 1
                let (key, sequence) = queue[head]
                head += 1
                guard let entry = entries[key], entry.sequence == sequence else { continue }  // stale slot
                if entry.inFlight > 0 {
                    let renewed = nextSequence
                    nextSequence += 1
                    entries[key]?.sequence = renewed
                    queue.append((key, renewed))
                } else {
                    entries[key] = nil
                }
            }
        }

        /// Drops consumed and stale queue slots once they dominate, so the queue stays
        /// proportional to the entries (amortized O(1) per append).
        private mutating func compact() {
            let live = queue.count - head
            guard (head > 1024 && head > queue.count / 2) || live > 2 * max(entries.count, 1024) else { return }
            let entries = entries
            queue = queue[head...].filter { entries[$0.key]?.sequence == $0.sequence }
            head = 0
        }
    }
}

extension LoginThrottle.Entry {
    /// Nothing to remember: no failures, no lock, nothing in flight.
    fileprivate var isIdle: Bool { failures == 0 && inFlight == 0 && lockedUntil == nil }

    /// Starts over once the failures are old: a login name a quiet ``LoginThrottlePolicy/failureWindow``
    /// after its last failure or lockout; an address once its window and lockout have passed.
    fileprivate mutating func expire(_ key: LoginThrottle.Key, now: Date, policy: LoginThrottlePolicy) {
        if let locked = lockedUntil, locked > now { return }
        let expired: Bool
        switch key {
        case .login:
            let last = max(lastFailure ?? .distantPast, lockedUntil ?? .distantPast)
            expired = now >= last.addingTimeInterval(policy.failureWindow)
        case .address:
            expired = now >= windowStart.addingTimeInterval(policy.failureWindow) || lockedUntil != nil
        }
        guard expired else { return }
        failures = 0
        lastFailure = nil
        lockedUntil = nil
    }
}

import Foundation
import SesameStore

/// The password-guessing counters every process of a deployment shares (``ThrottleStore``),
/// kept exactly as ``LoginThrottle`` keeps them in one process (issue #44): an attempt is counted
/// as a failure **before** its password is checked (``reserve(_:)``), and the count given back or
/// cleared when it was right (``settle(_:succeeded:)``). Of 20 guesses arriving at once on any
/// number of processes, no more are checked than the limit allows:
///
/// - a login name below its threshold (``LoginThrottlePolicy/failuresBeforeLockout``) admits the
///   attempts that bring it to the threshold and refuses the rest, unchecked;
/// - past it, once the lockout has ended, exactly one attempt claims the next check
///   (``ThrottleStore/claimThrottleProbe(key:now:until:)``); the others are refused;
/// - an address admits ``LoginThrottlePolicy/failuresPerAddress`` failures in its window, and is
///   locked at the next.
///
/// A refused attempt gives its count back, so only checked passwords count.
package struct SharedLoginThrottle: Sendable {
    let store: any ThrottleStore
    let policy: LoginThrottlePolicy
    let now: @Sendable () -> Date

    package init(store: any ThrottleStore, policy: LoginThrottlePolicy, now: @escaping @Sendable () -> Date) {
        self.store = store
        self.policy = policy
        self.now = now
    }

    /// An attempt counted in advance: hand it to ``settle(_:succeeded:)`` or ``release(_:)``.
    package struct Reservation: Sendable {
        /// Each counter's shared name, what it counts, and its count with this attempt.
        let counts: [(name: String, key: LoginThrottle.Key, failures: Int)]
    }

    package enum Admission: Sendable {
        case admitted(Reservation)
        /// Not checked; retry after this many seconds (≥ 1).
        case refused(retryAfter: Int)
    }

    /// Whether any of `keys` is locked in the shared counters now.
    package func isLocked(_ keys: [LoginThrottle.Key]) async throws -> Bool {
        try await store.throttleLock(keys: keys.map(LoginThrottle.sharedName), now: now()) != nil
    }

    /// Counts the attempt of `ticket` in the shared counters, or refuses it unchecked.
    package func reserve(_ ticket: LoginThrottle.Ticket) async throws -> Admission {
        let now = now()
        let names = ticket.keys.map(LoginThrottle.sharedName)
        if let until = try await store.throttleLock(keys: names, now: now) {
            return .refused(retryAfter: Self.seconds(until.timeIntervalSince(now)))
        }
        var counts: [(name: String, key: LoginThrottle.Key, failures: Int)] = []
        for (key, name) in zip(ticket.keys, names) {
            let isAddress = if case .address = key { true } else { false }
            let failures = try await store.recordThrottleFailure(
                key: name, now: now, forgetBefore: now.addingTimeInterval(-policy.failureWindow),
                restartAfterLockout: isAddress)
            counts.append((name, key, failures))
        }
        let reservation = Reservation(counts: counts)
        var refusal: TimeInterval?
        for count in counts {
            switch count.key {
            case .address:
                guard count.failures > max(1, policy.failuresPerAddress) else { continue }
                try await store.lockThrottle(key: count.name, until: now.addingTimeInterval(policy.addressLockout))
                refusal = max(refusal ?? 0, policy.addressLockout)
            case .login:
                guard count.failures > max(1, policy.failuresBeforeLockout) else { continue }
                // Past the threshold: the one attempt after a lockout, claimed under the lockout
                // a failure would earn (so the others wait for it).
                let next = policy.lockout(afterFailures: count.failures) ?? policy.initialLockout
                if try await !store.claimThrottleProbe(key: count.name, now: now, until: now.addingTimeInterval(next)) {
                    refusal = max(refusal ?? 0, 1)
                }
            }
        }
        if let refusal {
            try await release(reservation)
            return .refused(retryAfter: Self.seconds(refusal))
        }
        return .admitted(reservation)
    }

    /// Records how a reserved attempt ended: a right password clears the login name and gives
    /// the address its count back; a wrong one keeps both counts and locks as the policy says.
    package func settle(_ reservation: Reservation, succeeded: Bool) async throws {
        let now = now()
        for count in reservation.counts {
            switch (count.key, succeeded) {
            case (.login, true):
                try await store.clearThrottle(key: count.name)
            case (.address, true):
                try await store.forgiveThrottleFailure(key: count.name)
            case (.login, false):
                if let lockout = policy.lockout(afterFailures: count.failures) {
                    try await store.lockThrottle(key: count.name, until: now.addingTimeInterval(lockout))
                }
            case (.address, false):
                if count.failures >= max(1, policy.failuresPerAddress) {
                    try await store.lockThrottle(key: count.name, until: now.addingTimeInterval(policy.addressLockout))
                }
            }
        }
    }

    /// Gives every count of an attempt that was not checked back.
    package func release(_ reservation: Reservation) async throws {
        for count in reservation.counts { try await store.forgiveThrottleFailure(key: count.name) }
    }

    private static func seconds(_ interval: TimeInterval) -> Int { max(1, Int(interval.rounded(.up))) }
}

import Foundation
import SesameStore

/// Counts wrong user codes typed on the `/device` page (RFC 8628 §5.1) in counters every server
/// process shares: per client address (``ThrottleStore``: a lockout once the address crosses
/// its limit) and deployment-wide (``RateWindowStore``: minute windows aligned to the clock). A
/// refused attempt is not looked up at all, so even the right code is refused while locked.
///
/// Each attempt is counted as a failure **before** its code is looked up (``admit(address:)``)
/// and given back when the code was right (``forgive(_:)``): of 20 guesses arriving at once, on
/// any processes, no more are checked than the limit allows.
package struct UserCodeThrottle: Sendable {
    package let store: any ThrottleStore & RateWindowStore
    package let policy: DeviceAuthorizationPolicy
    package let now: @Sendable () -> Date

    /// The deployment-wide window, in seconds.
    static let deploymentWindow: TimeInterval = 60

    package init(
        store: any ThrottleStore & RateWindowStore, policy: DeviceAuthorizationPolicy,
        now: @escaping @Sendable () -> Date
    ) {
        self.store = store
        self.policy = policy
        self.now = now
    }

    /// What was locked, when an attempt is refused.
    package enum Lock: String, Sendable {
        case address
        case deployment
    }

    /// Seconds until `address` may type a code again, and why; `nil` when it may now.
    package func lockout(address: String?) async throws -> (retryAfter: Int, lock: Lock)? {
        let now = now()
        if let address, let until = try await store.throttleLock(keys: [Self.addressKey(address)], now: now) {
            return (max(1, Int(until.timeIntervalSince(now).rounded(.up))), .address)
        }
        if policy.failuresDeploymentWide > 0 {
            let window = Self.window(at: now)
            // Adding nothing reads the window's count across every process.
            let failures = try await store.addRequests(key: Self.deploymentKey, count: 0, windowStart: window) ?? 0
            if failures >= policy.failuresDeploymentWide {
                let end = window.addingTimeInterval(Self.deploymentWindow)
                return (max(1, Int(end.timeIntervalSince(now).rounded(.up))), .deployment)
            }
        }
        return nil
    }

    /// An attempt counted in advance: hand it to ``forgive(_:)`` when its code was right.
    package struct Admission: Sendable {
        let address: String?
        let window: Date
    }

    /// Counts this attempt as a failure before its code is checked: `nil` (and the address
    /// locked) when the count passes a limit, so the attempt must be refused unchecked.
    package func admit(address: String?) async throws -> Admission? {
        let now = now()
        let window = Self.window(at: now)
        var admitted = true
        if let address {
            let key = Self.addressKey(address)
            let failures = try await store.recordThrottleFailure(
                key: key, now: now, forgetBefore: now.addingTimeInterval(-policy.failureWindow))
            // The limit-th attempt is still checked; the next one is refused and locks.
            admitted = failures <= max(1, policy.failuresPerAddress)
            if !admitted {
                try await store.lockThrottle(key: key, until: now.addingTimeInterval(policy.addressLockout))
            }
        }
        if policy.failuresDeploymentWide > 0 {
            let failures = try await store.addRequests(key: Self.deploymentKey, count: 1, windowStart: window) ?? 0
            admitted = admitted && failures <= policy.failuresDeploymentWide
        }
        return admitted ? Admission(address: address, window: window) : nil
    }

    /// The attempt's code was right: its advance count is taken back.
    package func forgive(_ admission: Admission) async throws {
        if let address = admission.address {
            try await store.forgiveThrottleFailure(key: Self.addressKey(address))
        }
        if policy.failuresDeploymentWide > 0 {
            _ = try await store.addRequests(key: Self.deploymentKey, count: -1, windowStart: admission.window)
        }
    }

    /// The start of the deployment-wide window holding `date`.
    static func window(at date: Date) -> Date {
        let seconds = date.timeIntervalSince1970
        return Date(timeIntervalSince1970: (seconds / deploymentWindow).rounded(.down) * deploymentWindow)
    }

    static func addressKey(_ address: String) -> String { "device_user_code:address:" + address }
    static let deploymentKey = "device_user_code:deployment"
}

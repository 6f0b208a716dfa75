import SesameStore
import Foundation
import Logging
import ServiceLifecycle

/// Deletes what has expired, at start and then every ``interval`` while the server runs:
/// authorization codes, refresh tokens, revoked refresh families and revoked access-token ids
/// past their retention, browser sessions (``IdentityStore/purgeExpired(now:)``), email and
/// password-reset codes (``AccountStore/purgeExpiredAccountData(now:)``), MFA auth sessions and
/// re-authentication codes (``MFAStore/purgeExpiredMFAData(now:)``), redeemed challenges, and
/// audit records older than the retention period (``AuditStore/purgeAuditRecords(before:)``).
///
/// Without it the store only grows: every refresh leaves the rotated token behind (kept until
/// it expires so that its reuse is detected, RFC 9700 §4.14.2), and codes and sessions that
/// were never used stay forever. Only expired rows are deleted, so a purge never changes the
/// answer to a request. A failed purge is logged and retried at the next interval.
package struct ExpiredDataPurge: Service {
    package let identityStore: any IdentityStore
    package let accountStore: any AccountStore
    package let mfaStore: any MFAStore
    /// The audit log, purged of records older than ``auditRetention`` (`nil`: kept forever).
    package var auditStore: (any AuditStore)? = nil
    package var auditRetention: TimeInterval? = nil
    /// Dynamic client registration, when open: clients registered at `/register` that obtained
    /// no token within this many seconds are removed with their registration (RFC 7591 §5).
    package var unusedRegistrations: (store: any ClientRegistrationStore, lifetime: TimeInterval)? = nil
    package let interval: Duration
    package let now: @Sendable () -> Date
    package let logger: Logger

    package init(
        identityStore: any IdentityStore, accountStore: any AccountStore, mfaStore: any MFAStore,
        auditStore: (any AuditStore)? = nil, auditRetention: TimeInterval? = nil, interval: Duration,
        now: @escaping @Sendable () -> Date, logger: Logger
    ) {
        self.identityStore = identityStore
        self.accountStore = accountStore
        self.mfaStore = mfaStore
        self.auditStore = auditStore
        self.auditRetention = auditRetention
        self.interval = interval
        self.now = now
        self.logger = logger
    }

    package func run() async {
        while !Task.isCancelled && !Task.isShuttingDownGracefully {
            await purgeOnce()
            do {
                try await cancelWhenGracefulShutdown { try await Task.sleep(for: interval) }
            } catch {
                return  // graceful shutdown or cancellation
            }
        }
    }

    /// One pass over every kind of expiring data, in one process of the deployment at a time
    /// (``IdentityStore/runExclusively(_:_:)``): another process purging meanwhile makes this
    /// pass a no-op.
    package func purgeOnce() async {
        let now = now()
        let started = ContinuousClock.now
        let (identityStore, accountStore, mfaStore) = (identityStore, accountStore, mfaStore)
        let (auditStore, auditRetention) = (auditStore, auditRetention)
        let unusedRegistrations = unusedRegistrations
        let logger = logger
        do {
            let ran = try await identityStore.runExclusively("purge-expired") {
                try await identityStore.purgeExpired(now: now)
                try await accountStore.purgeExpiredAccountData(now: now)
                try await mfaStore.purgeExpiredMFAData(now: now)
                if let auditStore, let auditRetention {
                    try await auditStore.purgeAuditRecords(before: now.addingTimeInterval(-auditRetention))
                }
                if let (registrations, lifetime) = unusedRegistrations {
                    let removed = try await registrations.removeUnusedRegisteredClients(
                        registeredBefore: now.addingTimeInterval(-lifetime))
                    if !removed.isEmpty {
                        logger.info(
                            "removed registered clients that obtained no token", metadata: ["count": "\(removed.count)"])
                    }
                }
            }
            logger.debug(
                ran ? "purged expired codes, tokens and sessions" : "another process is purging; skipped",
                metadata: ["duration": .stringConvertible(ContinuousClock.now - started)])
        } catch {
            logger.warning(
                "could not purge expired data; retrying at the next interval",
                metadata: ["error": .string("\(error)"), "interval_s": .stringConvertible(interval.components.seconds)])
        }
    }
}

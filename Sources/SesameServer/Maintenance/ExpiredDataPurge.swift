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
struct ExpiredDataPurge: Service {
    let identityStore: any IdentityStore
    let accountStore: any AccountStore
    let mfaStore: any MFAStore
    /// The audit log, purged of records older than ``auditRetention`` (`nil`: kept forever).
    var auditStore: (any AuditStore)? = nil
    var auditRetention: TimeInterval? = nil
    let interval: Duration
    let now: @Sendable () -> Date
    let logger: Logger

    func run() async {
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
    func purgeOnce() async {
        let now = now()
        let started = ContinuousClock.now
        let (identityStore, accountStore, mfaStore) = (identityStore, accountStore, mfaStore)
        let (auditStore, auditRetention) = (auditStore, auditRetention)
        do {
            let ran = try await identityStore.runExclusively("purge-expired") {
                try await identityStore.purgeExpired(now: now)
                try await accountStore.purgeExpiredAccountData(now: now)
                try await mfaStore.purgeExpiredMFAData(now: now)
                if let auditStore, let auditRetention {
                    try await auditStore.purgeAuditRecords(before: now.addingTimeInterval(-auditRetention))
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

import Foundation
import SesameProtocol
import SesameStore

/// What the console's home page shows (issue #47, ``AdminOverview``): sign-ins, failed
/// sign-ins by reason, lockouts and new users over the last hour, day or month, from the audit
/// log in one grouped statement; the number of users and live browser sessions; the signing keys'
/// ages. Every role may read it.
package struct OperatorOverview: Sendable {
    package let store: any ProviderStore
    package let keyRing: KeyRing
    package let now: @Sendable () -> Date

    package init(store: any ProviderStore, keyRing: KeyRing, now: @escaping @Sendable () -> Date) {
        self.store = store
        self.keyRing = keyRing
        self.now = now
    }

    /// The span a chart covers and its intervals.
    package enum Window: String, Sendable, CaseIterable {
        /// Twelve 5-minute intervals.
        case hour
        /// Twenty-four hours.
        case day
        /// Thirty days.
        case month

        package var interval: TimeInterval {
            switch self {
            case .hour: 300
            case .day: 3600
            case .month: 86400
            }
        }

        package var intervals: Int {
            switch self {
            case .hour: 12
            case .day: 24
            case .month: 30
            }
        }
    }

    /// The series and the audit events each counts.
    package static let series: [(name: String, events: [AuditEvent])] = [
        ("sign_ins", [.signInSucceeded, .federationSignedIn, .passkeyUsed, .pinUnlocked]),
        ("failures", [.signInFailed]),
        ("lockouts", [.signInThrottled]),
        ("new_users", [.accountCreated, .federationAccountCreated, .userAdded]),
    ]

    package func overview(_ window: Window, by actor: AdminActor) async throws -> AdminOverview {
        try actor.require(.readAudit)
        let now = now()
        // Whole intervals, the last one holding now.
        let end = (now.timeIntervalSince1970 / window.interval).rounded(.down) * window.interval + window.interval
        let since = Date(timeIntervalSince1970: end - window.interval * Double(window.intervals))
        let counts = try await store.auditEventCounts(
            events: Self.series.flatMap { $0.events.map(\.rawValue) }, since: since, bucket: window.interval)
        let series = Self.series.map { line in
            let names = Set(line.events.map(\.rawValue))
            var values = [Int](repeating: 0, count: window.intervals)
            for count in counts where names.contains(count.event) && values.indices.contains(count.bucket) {
                values[count.bucket] += count.count
            }
            return AdminSeries(name: line.name, counts: values)
        }
        var reasons: [String: Int] = [:]
        for count in counts where count.event == AuditEvent.signInFailed.rawValue {
            reasons[count.reason ?? "unknown", default: 0] += count.count
        }
        var ages: [String: Int] = [:]
        for key in try await keyRing.keys() where key.retiredAt == nil && key.activatesAt <= now {
            let age = Int(now.timeIntervalSince(key.createdAt))
            ages[key.algorithm] = min(ages[key.algorithm] ?? age, age)
        }
        return AdminOverview(
            window: window.rawValue, since: Int(since.timeIntervalSince1970), intervalSeconds: Int(window.interval),
            series: series,
            failureReasons: reasons.map { AdminReasonCount(reason: $0.key, count: $0.value) }
                .sorted { ($0.count, $1.reason) > ($1.count, $0.reason) },
            users: try await store.userCount(), liveSessions: try await store.liveBrowserSessionCount(now: now),
            health: AdminHealth(
                database: "ok", signingKeyAges: ages,
                processes: try await store.processes(seenSince: now.addingTimeInterval(-ProcessHeartbeat.window)).map {
                    AdminProcess(
                        host: $0.host, pid: $0.pid, startedAt: Int($0.startedAt.timeIntervalSince1970),
                        lastSeen: Int($0.lastSeen.timeIntervalSince1970))
                }))
    }
}

import Foundation
import Logging
import SesameProtocol
import SesameStore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Each server process says it is alive (issue #47: the overview's health lists the "processes
/// seen"): a row in `server_processes` written at start and every ``interval``; the overview
/// counts those seen within ``window``. Rows a day old are deleted with each beat.
package struct ProcessHeartbeat: Sendable {
    package static let interval: Duration = .seconds(15)
    /// Three beats: a process missing for that long is no longer counted.
    package static let window: TimeInterval = 45
    package let store: any AdminStore
    package let id = SecureRandom.uuid()
    package let host = ProcessHeartbeat.hostName()
    package let pid = Int(ProcessInfo.processInfo.processIdentifier)
    package let startedAt: Date
    package let now: @Sendable () -> Date
    package let logger: Logger

    package init(store: any AdminStore, now: @escaping @Sendable () -> Date, logger: Logger) {
        self.store = store
        self.now = now
        self.logger = logger
        startedAt = now()
    }

    /// Writes this process's row; a failure is logged (the database's own health says more).
    package func beat() async {
        do {
            try await store.recordHeartbeat(ServerProcessRecord(id: id, host: host, pid: pid, startedAt: startedAt, lastSeen: now()))
        } catch {
            logger.warning("could not record this process's heartbeat", metadata: ["error": "\(error)"])
        }
    }

    /// The beat every ``interval`` while the server runs.
    package func service() -> PeriodicService {
        PeriodicService(interval: Self.interval) { await beat() }
    }

    /// `gethostname(2)`, without the DNS lookup Foundation's `hostName` may make.
    static func hostName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count) == 0 else { return "unknown" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

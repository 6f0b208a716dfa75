import SesameProtocol
import Foundation
import Logging
import Synchronization

/// Counts a server's open connections against ``ConnectionLimits/maximumConnections``. Past the
/// maximum a new connection is closed at once, before anything is read from it, so a flood of
/// connections cannot exhaust file descriptors or memory; the first refusal after a quiet
/// minute is logged as a warning.
final class ConnectionCap: Sendable {
    let maximum: Int
    private let logger: Logger
    private let open = Atomic<Int>(0)
    private let lastWarning = LockedState<Date?>(nil)

    init(maximum: Int, logger: Logger) {
        self.maximum = maximum
        self.logger = logger
    }

    /// Counts a new connection; `false` when it is over the maximum (the caller closes it).
    /// Every call must be matched by ``closed()`` when the connection ends.
    func opened() -> Bool {
        let count = open.wrappingAdd(1, ordering: .relaxed).newValue
        guard count > maximum else { return true }
        let now = Date()
        let warn = lastWarning.withLock { last in
            guard last.map({ now.timeIntervalSince($0) >= 60 }) ?? true else { return false }
            last = now
            return true
        }
        if warn {
            logger.warning(
                "connection cap reached: new connections are closed at once (sesame serve --max-connections)",
                metadata: ["maximum_connections": "\(maximum)"])
        }
        return false
    }

    func closed() { open.wrappingSubtract(1, ordering: .relaxed) }

    /// Connections open now (tests).
    var openConnections: Int { open.load(ordering: .relaxed) }
}

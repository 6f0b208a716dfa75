import SesameProtocol
import SesameStore
import Foundation
import Logging

/// Records security decisions (``AuditEvent``) in the store's audit log (``AuditStore``),
/// without making a request wait for a database write: records are buffered in memory and
/// written in batches by ``writer()`` (every 250 ms, and on shutdown). The buffer is bounded
/// (``capacity``): under a flood that outruns the database the excess is dropped and counted,
/// and the count is recorded as `audit.dropped`.
///
/// A record holds identifiers and reasons only; callers never pass a password, code, token,
/// challenge token or nonce.
final package class AuditLog: Sendable {
    private struct Buffer {
        var records: [AuditRecord] = []
        var dropped = 0
    }

    private let store: (any AuditStore)?
    private let now: @Sendable () -> Date
    private let logger: Logger
    package let capacity: Int
    private let buffer = LockedState(Buffer())
    /// The latest write; each flush waits for the one before it, so a flush that finds the
    /// buffer already taken by a write in flight still returns only once that write is done.
    private let lastWrite = LockedState<Task<Void, Never>?>(nil)

    package init(store: (any AuditStore)?, now: @escaping @Sendable () -> Date, logger: Logger, capacity: Int = 10_000) {
        self.store = store
        self.now = now
        self.logger = logger
        self.capacity = capacity
    }

    /// No audit log (tests of other parts, tools without a store).
    package static let off = AuditLog(store: nil, now: { Date() }, logger: Logger(label: "sesame.audit"))

    /// Records `event` for the request it came from (`origin`: its id and client address, and
    /// the client id it recorded unless `clientID` is given).
    package func record(
        _ event: AuditEvent, reason: String? = nil, origin: RequestOrigin?, clientID: String? = nil,
        userID: String? = nil, detail: [String: String] = [:]
    ) {
        guard store != nil else { return }
        let record = AuditRecord(
            time: now(), event: event.rawValue, reason: reason,
            clientAddress: origin?.clientAddress, clientID: clientID ?? origin?.clientID, userID: userID,
            requestID: origin?.requestID,
            detail: detail)
        let capacity = capacity
        buffer.withLock { buffer in
            if buffer.records.count < capacity {
                buffer.records.append(record)
            } else {
                buffer.dropped += 1
            }
        }
    }

    /// Writes what is buffered (one batch). A failed write keeps the records for the next try
    /// (within the bound).
    package func flush() async {
        guard store != nil else { return }
        let write = lastWrite.withLock { last in
            let previous = last
            let next = Task { [self] in
                await previous?.value
                await writeBuffered()
            }
            last = next
            return next
        }
        await write.value
    }

    /// Takes what is buffered and writes it (one batch).
    private func writeBuffered() async {
        guard let store else { return }
        let (records, dropped) = buffer.withLock { buffer in
            defer { buffer = Buffer() }
            return (buffer.records, buffer.dropped)
        }
        var batch = records
        if dropped > 0 {
            batch.append(AuditRecord(time: now(), event: AuditEvent.auditDropped.rawValue, detail: ["count": "\(dropped)"]))
        }
        guard !batch.isEmpty else { return }
        do {
            try await store.appendAuditRecords(batch)
        } catch {
            logger.warning(
                "could not write the audit log; keeping the records for the next try",
                metadata: ["records": "\(batch.count)", "error": "\(error)"])
            let capacity = capacity
            buffer.withLock { buffer in
                let room = max(0, capacity - buffer.records.count)
                buffer.records.insert(contentsOf: batch.prefix(room), at: 0)
                buffer.dropped += max(0, batch.count - room)
            }
        }
    }

    /// Records buffered and not yet written (tests).
    package var pendingCount: Int { buffer.withLock { $0.records.count } }

    /// The service that writes the log every 250 ms and once more when the server stops.
    package func writer(interval: Duration = .milliseconds(250)) -> PeriodicService {
        PeriodicService(interval: interval, runsAtShutdown: true) { [self] in await flush() }
    }
}

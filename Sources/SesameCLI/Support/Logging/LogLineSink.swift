import Dispatch
import Foundation
import SesameProtocol

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where the server's log lines go (issue #50: "request logging at the default level … with no
/// per-request system call beyond the socket's read and write"). A line is appended to a buffer
/// in memory, after its time (``LogTimestamp``, formatted once a second and kept as UTF-8 under the
/// lock the line takes anyway); one write to standard error carries everything buffered, 50 ms after the first
/// line of a batch (or at once past 64 KiB). Lines of `warning` and above are written at once,
/// after what was buffered, so a failure is on the terminal before anything else happens; the
/// process flushes at exit (``flush()``, `atexit`). A `kill -9` can lose the last 50 ms of
/// informational lines, never a warning.
///
/// A written batch's buffer comes back emptied, with its capacity, as the next one (``State/spare``):
/// taking the buffer with `removeAll(keepingCapacity:)` while the writer still held it allocated a
/// copy of its capacity each time, and under a load of 70,000 lines a second those in flight were
/// about 2.8 MB of the heap's peak (issue #50, found with heaptrack).
final class LogLineSink: Sendable {
    static let shared = LogLineSink()
    static let delay: DispatchTimeInterval = .milliseconds(50)
    static let limit = 64 * 1024

    private struct State {
        var buffer: [UInt8] = []
        /// An emptied buffer with its capacity, from the last write, taken as the next buffer.
        var spare: [UInt8] = []
        var scheduled = false
        /// The second ``stamp`` is the time of (`Int.min`: none yet).
        var stampSecond = Int.min
        /// ``LogTimestamp/text(_:)`` of ``stampSecond`` as UTF-8.
        var stamp: [UInt8] = []

        /// The lines buffered so far; the spare (empty) takes their place.
        mutating func take() -> [UInt8] {
            let taken = buffer
            buffer = spare
            spare = []
            return taken
        }
    }

    private let state = LockedState(State())
    /// Held while a batch is taken and written, so that batches reach the output in the order
    /// their lines were appended (taken first, written first). Taken before `state`, never after.
    private let writing = LockedState(())
    private let queue = DispatchQueue(label: "sesame.log")
    private let output: Int32
    private let limit: Int

    init(output: Int32 = 2, limit: Int = LogLineSink.limit) {
        self.output = output
        self.limit = limit
        if output == 2 { Self.registerExitFlush() }
    }

    /// Buffers `line` (UTF-8, with its newline), or writes it and the buffer now when `urgent`.
    func append(_ line: String, urgent: Bool) {
        append(urgent: urgent) { state in line.appendUTF8(to: &state.buffer) }
    }

    /// Buffers the line that starts with the time `second` (``LogTimestamp/text(_:)``) and goes on
    /// with what `write` appends (UTF-8, with its newline) to the buffer itself, under the sink's
    /// lock: a line costs no string of its own and one lock (issue #50). `write` runs under the
    /// lock, so it only copies bytes: it must not log.
    func append(urgent: Bool, stampedAt second: Int, _ write: (inout [UInt8]) -> Void) {
        append(urgent: urgent) { state in
            if state.stampSecond != second {
                state.stamp = Array(LogTimestamp.text(second).utf8)
                state.stampSecond = second
            }
            state.buffer.append(contentsOf: state.stamp)
            write(&state.buffer)
        }
    }

    private func append(urgent: Bool, _ write: (inout State) -> Void) {
        var writeNow = false
        var schedule = false
        state.withLock { state in
            write(&state)
            if urgent || state.buffer.count >= limit {
                writeNow = true
            } else if !state.scheduled {
                state.scheduled = true
                schedule = true
            }
        }
        // Another writer may take this line with its own batch first: then it is written
        // before this returns, as the lock below waits for that write.
        if writeNow { writeBuffered(endingBatch: false) }
        if schedule { queue.asyncAfter(deadline: .now() + Self.delay) { [self] in scheduledFlush() } }
    }

    /// Writes everything buffered now.
    func flush() { writeBuffered(endingBatch: false) }

    private func scheduledFlush() { writeBuffered(endingBatch: true) }

    /// Writes what is buffered, then keeps its buffer, emptied, as the spare; `endingBatch`: the
    /// scheduled write of a batch, after which the next line schedules another.
    private func writeBuffered(endingBatch: Bool) {
        writing.withLock { _ in
            var pending = state.withLock { state -> [UInt8] in
                if endingBatch { state.scheduled = false }
                return state.buffer.isEmpty ? [] : state.take()
            }
            guard !pending.isEmpty else { return }
            writeAll(pending)
            pending.removeAll(keepingCapacity: true)  // the only reference now: no copy
            // One batch is written at a time (`writing`), so the spare is the one this batch's
            // `take` emptied: this buffer replaces it.
            state.withLock { $0.spare = pending }
        }
    }

    private func writeAll(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = write(output, raw.baseAddress! + offset, raw.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return  // standard error is gone: nothing better to do with a log line
                }
                offset += written
            }
        }
    }

    private static func registerExitFlush() {
        atexit { LogLineSink.shared.flush() }
    }
}

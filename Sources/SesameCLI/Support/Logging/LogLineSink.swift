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
/// in memory; one write to standard error carries everything buffered, 50 ms after the first
/// line of a batch (or at once past 64 KiB). Lines of `warning` and above are written at once,
/// after what was buffered, so a failure is on the terminal before anything else happens; the
/// process flushes at exit (``flush()``, `atexit`). A `kill -9` can lose the last 50 ms of
/// informational lines, never a warning.
final class LogLineSink: Sendable {
    static let shared = LogLineSink()
    static let delay: DispatchTimeInterval = .milliseconds(50)
    static let limit = 64 * 1024

    private struct State {
        var buffer: [UInt8] = []
        var scheduled = false
    }

    private let state = LockedState(State())
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
        var pending: [UInt8]?
        var schedule = false
        state.withLock { state in
            state.buffer.append(contentsOf: line.utf8)
            if urgent || state.buffer.count >= limit {
                pending = state.buffer
                state.buffer.removeAll(keepingCapacity: true)
            } else if !state.scheduled {
                state.scheduled = true
                schedule = true
            }
        }
        if let pending { emit(pending) }
        if schedule { queue.asyncAfter(deadline: .now() + Self.delay) { [self] in scheduledFlush() } }
    }

    /// Writes everything buffered now.
    func flush() { flush(endingBatch: false) }

    private func scheduledFlush() { flush(endingBatch: true) }

    /// Writes what is buffered; `endingBatch`: the scheduled write of a batch, after which the
    /// next line schedules another.
    private func flush(endingBatch: Bool) {
        let pending = state.withLock { state -> [UInt8] in
            if endingBatch { state.scheduled = false }
            defer { state.buffer.removeAll(keepingCapacity: true) }
            return state.buffer
        }
        if !pending.isEmpty { emit(pending) }
    }

    private func emit(_ bytes: [UInt8]) {
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

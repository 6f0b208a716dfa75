import Foundation
import Synchronization

/// A process's resident memory from `/proc/<pid>/smaps_rollup` (Linux ≥ 4.14), split the way
/// issue #50 states its goal: anonymous pages (the heap, thread stacks: what the process made)
/// and file-backed pages (its binary and shared libraries as far as they were touched).
struct ProcessMemory: Sendable, Equatable {
    /// Anonymous resident bytes (`Anonymous:`).
    var anonymous: Int
    /// All resident bytes (`Rss:`); `rss - anonymous` is the file-backed part.
    var rss: Int

    var fileBacked: Int { rss - anonymous }

    /// Now, or `nil` when the process is gone or /proc cannot be read.
    static func read(pid: Int32) -> ProcessMemory? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/smaps_rollup", encoding: .utf8) else { return nil }
        var anonymous: Int?
        var rss: Int?
        for line in text.split(separator: "\n") {
            if line.hasPrefix("Rss:") { rss = kilobytes(line) }
            if line.hasPrefix("Anonymous:") { anonymous = kilobytes(line) }
        }
        guard let anonymous, let rss else { return nil }
        return ProcessMemory(anonymous: anonymous * 1024, rss: rss * 1024)
    }

    /// `Name:   1234 kB` → 1234.
    private static func kilobytes(_ line: Substring) -> Int? {
        line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first.flatMap { Int($0) }
    }

    /// The larger of each part.
    func peak(with other: ProcessMemory) -> ProcessMemory {
        ProcessMemory(anonymous: max(anonymous, other.anonymous), rss: max(rss, other.rss))
    }
}

/// Samples a process's memory every 50 ms while a round runs and keeps the peak of each part
/// over the process's life (the servers live across rounds, so the peak covers every round so far).
final class PeakMemorySampler: Sendable {
    private let pid: Int32
    private let state = Mutex<ProcessMemory?>(nil)

    init(pid: Int32) { self.pid = pid }

    /// The peak seen so far (`nil` before the first sample).
    var peak: ProcessMemory? { state.withLock { $0 } }

    /// Samples until `body` returns, then once more.
    func sampling<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        let task = Task.detached { [self] in
            while !Task.isCancelled {
                sample()
                try? await Task.sleep(for: .milliseconds(50))
            }
        }
        defer {
            task.cancel()
            sample()
        }
        return try await body()
    }

    private func sample() {
        guard let now = ProcessMemory.read(pid: pid) else { return }
        state.withLock { $0 = $0.map { $0.peak(with: now) } ?? now }
    }
}

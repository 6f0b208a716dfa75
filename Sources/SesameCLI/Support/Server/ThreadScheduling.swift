import ArgumentParser
import Foundation

#if os(Linux)
    import Glibc
#endif

/// How `sesame serve` asks Linux to schedule its threads (sched(7)).
///
/// Under load every request passes through several threads: NIO's event loops read and
/// write, Swift's cooperative pool runs the handler and signs, SQLite's pool runs statements.
/// With the default `SCHED_OTHER`, each hand-off wakes a thread that preempts the one signing
/// on that core: an inter-processor interrupt and two context switches per wake-up, several
/// times per request. `SCHED_BATCH` is the policy sched(7) names for this: a woken thread waits
/// for the running one's time slice instead of preempting it, so each thread runs longer and
/// handles more work per turn (measured in docs/benchmarks.md). CPU
/// shares (nice values) are unchanged, and any idle core still runs a woken thread at once.
enum ThreadScheduling: String, CaseIterable, ExpressibleByArgument {
    /// `SCHED_BATCH` for every thread that has the default `SCHED_OTHER` (the default on Linux).
    case batch
    /// Leave the threads as the process was started (e.g. under `chrt` or systemd's
    /// `CPUSchedulingPolicy=`).
    case unchanged

    /// What `sesame serve` uses without `--thread-scheduling`: `batch` where it exists.
    static var platformDefault: ThreadScheduling {
        #if os(Linux)
            .batch
        #else
            .unchanged
        #endif
    }

    /// `SCHED_OTHER` and `SCHED_BATCH` from `<linux/sched.h>` (Glibc does not export the latter
    /// to Swift).
    static let otherPolicy: Int32 = 0
    static let batchPolicy: Int32 = 3

    /// Whether `apply()` moves a thread that runs under `policy` to `SCHED_BATCH`: only from
    /// the default `SCHED_OTHER`. Any other policy (`SCHED_IDLE`, `SCHED_FIFO`, `SCHED_RR`, or
    /// `SCHED_BATCH` already) was the operator's choice and is left as it is.
    static func replaces(_ policy: Int32) -> Bool {
        policy == otherPolicy
    }

    /// Applies the policy to every thread of this process. Threads they start later inherit
    /// it (`pthread_create`'s default `PTHREAD_INHERIT_SCHED`), so calling this before the
    /// server starts covers the threads it creates; a second call catches any thread that was
    /// being created during the first. A thread already under another policy (`chrt`,
    /// systemd) is left as it is: that was the operator's choice.
    ///
    /// - Returns: how many threads changed policy.
    func apply() throws(ThreadSchedulingError) -> Int {
        guard self == .batch else { return 0 }
        #if os(Linux)
            let tasks: [String]
            do {
                tasks = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")
            } catch {
                throw ThreadSchedulingError(reason: "cannot list /proc/self/task (\(error.localizedDescription))")
            }
            var changed = 0
            for case let tid? in tasks.map({ pid_t($0) }) {
                let current = sched_getscheduler(tid)
                if current < 0 {
                    if errno == ESRCH { continue }  // the thread ended meanwhile
                    throw ThreadSchedulingError(reason: "cannot read thread \(tid)'s policy (\(String(cString: strerror(errno))))")
                }
                guard Self.replaces(current) else { continue }
                var parameters = sched_param(sched_priority: 0)
                if sched_setscheduler(tid, Self.batchPolicy, &parameters) != 0 {
                    if errno == ESRCH { continue }
                    throw ThreadSchedulingError(reason: "cannot set SCHED_BATCH on thread \(tid) (\(String(cString: strerror(errno))))")
                }
                changed += 1
            }
            return changed
        #else
            throw ThreadSchedulingError(reason: "SCHED_BATCH exists only on Linux")
        #endif
    }
}

/// The threads' policy could not be set; the server runs on, as the process was started.
struct ThreadSchedulingError: Error, CustomStringConvertible {
    let reason: String
    var description: String {
        "\(reason); the server keeps the default scheduling (pass --thread-scheduling unchanged to skip this)"
    }
}

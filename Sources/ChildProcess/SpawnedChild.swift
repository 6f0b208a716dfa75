import Foundation
import SesameProtocol

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

#if os(macOS) || os(Linux) || os(FreeBSD) || os(OpenBSD)

/// A child process started with `posix_spawn(3)`: the browser launchers (`xdg-open`, `open`,
/// `$BROWSER`) and the tests that start processes (the CLI tests start `sesame` about 150
/// times per run).
///
/// Not Foundation's `Process`: on Linux, `Process.run()` of Swift 6.3.1 copies each
/// `/proc/self/fd` entry's 256-byte name field while closing descriptors, reading past the end
/// of glibc's directory buffer, and crashed the whole test process once in CI (a bad pointer
/// dereference in `memcpy` under `Process.run()`; swiftlang/swift-corelibs-foundation#5472,
/// fixed after 6.3.1).
///
/// The child gets the given environment and working directory, its standard streams from
/// files or a pipe, default signal handling with nothing blocked, and no other descriptor of
/// this process. It is reaped once, by polling `waitpid(WNOHANG)` (no thread blocks), and a
/// signal is never sent once it has been reaped (``send(_:)``).
public struct SpawnedChild: Sendable {
    public let pid: pid_t
    private let reaper: Reaper

    private init(pid: pid_t) {
        self.pid = pid
        reaper = Reaper(pid: pid)
    }

    /// Where the child's standard input comes from.
    public enum Input: Sendable {
        /// `/dev/null`, or a file to read.
        case file(String)
        /// The read end of a pipe (duplicated onto descriptor 0 in the child).
        case descriptor(Int32)
    }

    /// Where the child's standard output or error goes.
    public enum Output: Sendable {
        /// Appended to a file (`/dev/null` discards it).
        case file(String)
        /// A descriptor of this process, such as 2 for its standard error.
        case descriptor(Int32)
        /// This process's own stream, as it is.
        case inherited
    }

    public struct SpawnError: Error, CustomStringConvertible {
        public let description: String
    }

    /// Starts `executable` (a path; no `PATH` search). `descriptors` maps descriptor numbers of
    /// the child (3 and up) to descriptors of this process that are duplicated onto them, for
    /// children that talk over more than the standard streams (Chromium's
    /// `--remote-debugging-pipe` reads descriptor 3 and writes 4); every other descriptor is
    /// closed in the child.
    public static func spawn(
        _ executable: String, arguments: [String], environment: [String: String], input: Input,
        output: Output, error: Output, directory: String? = nil, descriptors: [Int32: Int32] = [:]
    ) throws -> SpawnedChild {
        #if canImport(Darwin)
            var actions: posix_spawn_file_actions_t? = nil
            var attributes: posix_spawnattr_t? = nil
        #else
            var actions = posix_spawn_file_actions_t()
            var attributes = posix_spawnattr_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        switch input {
        case .file(let path): posix_spawn_file_actions_addopen(&actions, 0, path, O_RDONLY, 0)
        case .descriptor(let fd): posix_spawn_file_actions_adddup2(&actions, fd, 0)
        }
        for (target, output) in [(Int32(1), output), (2, error)] {
            switch output {
            case .file(let path): posix_spawn_file_actions_addopen(&actions, target, path, O_WRONLY | O_APPEND, 0)
            case .descriptor(let fd): posix_spawn_file_actions_adddup2(&actions, fd, target)
            case .inherited: break
            }
        }
        for (target, source) in descriptors.sorted(by: { $0.key < $1.key }) {
            guard target > 2, source > descriptors.keys.max() ?? 2 else {
                throw SpawnError(
                    description: "cannot give \(executable) descriptor \(source) as \(target): the target must be above 2 "
                        + "and the source above every target")
            }
            posix_spawn_file_actions_adddup2(&actions, source, target)
        }
        if let directory {
            guard let addChdir = GNUSpawnActions.addChdir, addChdir(&actions, directory) == 0 else {
                throw SpawnError(
                    description: "cannot start \(executable) in \(directory): posix_spawn_file_actions_addchdir_np is missing")
            }
        }
        _ = GNUSpawnActions.addCloseFrom?(&actions, (descriptors.keys.max() ?? 2) + 1)

        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid = pid_t()
        let result = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        guard result == 0 else {
            throw SpawnError(description: "posix_spawn \(executable) failed: \(String(cString: strerror(result)))")
        }
        return SpawnedChild(pid: pid)
    }

    /// How the child ended.
    public enum Termination: Sendable, Equatable {
        case exited(Int32)
        case signaled(Int32)

        /// The exit status, or the signal number if a signal ended it (what
        /// `Process.terminationStatus` reports).
        public var status: Int32 {
            switch self {
            case .exited(let status), .signaled(let status): status
            }
        }
    }

    /// Yields how the child ended (once), then finishes. Any number of callers may wait; the
    /// child is reaped once, by ``Reaper``.
    public func termination() -> AsyncStream<Termination> {
        let (stream, continuation) = AsyncStream.makeStream(of: Termination.self)
        reaper.notify { termination in
            continuation.yield(termination)
            continuation.finish()
        }
        return stream
    }

    /// Sends `signal` to the child, unless it has already been reaped: a reaped child's pid
    /// may belong to another process by now (as root that could be anything: a database
    /// backend, the test's own browser), so a late signal is dropped instead.
    public func send(_ signal: Int32) { reaper.signal(signal) }

    /// How the child ended, as a stream, and as a record set before the stream yields (for
    /// loops that poll whether the child still runs).
    public func watch() -> (ended: AsyncStream<Termination>, record: TerminationRecord) {
        let record = TerminationRecord()
        let (stream, continuation) = AsyncStream.makeStream(of: Termination.self)
        reaper.notify { termination in
            record.value.withLock { $0 = termination }
            continuation.yield(termination)
            continuation.finish()
        }
        return (stream, record)
    }
}

/// Reaps one child exactly once, from a task of its own that nothing cancels (polling
/// `waitpid(WNOHANG)` every 10 ms; no thread blocks), and serializes signals with the reaping:
/// `kill(2)` happens under the same lock as `waitpid(2)`, so it can only reach the child while
/// the child (or its zombie) still holds the pid.
final class Reaper: Sendable {
    typealias Waiter = @Sendable (SpawnedChild.Termination) -> Void

    private struct State {
        var termination: SpawnedChild.Termination?
        var waiters: [Waiter] = []
    }

    private let pid: pid_t
    private let state = LockedState(State())

    init(pid: pid_t) {
        self.pid = pid
        Task.detached { [self] in
            while !self.poll() { try? await Task.sleep(nanoseconds: 10_000_000) }
        }
    }

    /// One `waitpid(WNOHANG)`; `true` once the child has been reaped (its waiters are then told).
    private func poll() -> Bool {
        let reaped = state.withLock { state -> (SpawnedChild.Termination, [Waiter])? in
            var status: Int32 = 0
            let result = waitpid(pid, &status, WNOHANG)
            let ended: SpawnedChild.Termination
            if result == pid {
                let signal = status & 0x7f
                ended = signal == 0 ? .exited((status >> 8) & 0xff) : .signaled(signal)
            } else if result < 0 && errno != EINTR {
                ended = .exited(-1)
            } else {
                return nil
            }
            state.termination = ended
            let waiters = state.waiters
            state.waiters = []
            return (ended, waiters)
        }
        guard let (termination, waiters) = reaped else { return false }
        for waiter in waiters { waiter(termination) }
        return true
    }

    /// Calls `waiter` once with how the child ended (at once if it already has).
    func notify(_ waiter: @escaping Waiter) {
        let ended = state.withLock { state -> SpawnedChild.Termination? in
            if state.termination == nil { state.waiters.append(waiter) }
            return state.termination
        }
        if let ended { waiter(ended) }
    }

    /// `kill(pid, signal)` while the child is not yet reaped; nothing after.
    func signal(_ signal: Int32) {
        state.withLock { state in
            if state.termination == nil { _ = kill(pid, signal) }
        }
    }
}

/// How a child ended, once it has.
public final class TerminationRecord: Sendable {
    let value = LockedState<SpawnedChild.Termination?>(nil)

    /// `nil` while the child runs.
    public var termination: SpawnedChild.Termination? { value.withLock { $0 } }
}

/// glibc's `posix_spawn_file_actions_addchdir_np` (2.29) and `…_addclosefrom_np` (2.34), which
/// the Glibc module does not export (they need `_GNU_SOURCE`), looked up at run time.
enum GNUSpawnActions {
    #if canImport(Darwin)
        typealias Actions = posix_spawn_file_actions_t?
    #else
        typealias Actions = posix_spawn_file_actions_t
    #endif
    typealias AddChdir = @convention(c) (UnsafeMutablePointer<Actions>, UnsafePointer<CChar>) -> Int32
    typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<Actions>, Int32) -> Int32

    static let addChdir: AddChdir? = symbol("posix_spawn_file_actions_addchdir_np")
    static let addCloseFrom: AddCloseFrom? = symbol("posix_spawn_file_actions_addclosefrom_np")

    private static func symbol<T>(_ name: String) -> T? {
        #if canImport(Darwin)
            let everywhere = UnsafeMutableRawPointer(bitPattern: -2)  // RTLD_DEFAULT
        #else
            let everywhere = UnsafeMutableRawPointer(bitPattern: 0)  // RTLD_DEFAULT
        #endif
        guard let address = dlsym(everywhere, name) else { return nil }
        return unsafeBitCast(address, to: T.self)
    }
}

#endif

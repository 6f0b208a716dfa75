import ChildProcess
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The process launcher every test that starts a process uses: one reaping per child, any
/// number of waiters, and no signal once the child is reaped (its pid may be another
/// process's by then; as root a stray SIGKILL once took down the test run's PostgreSQL backends).
@Suite("SpawnedChild: reaping and signals")
struct SpawnedChildTests {
    @Test("every waiter hears the same exit status, also one that starts waiting after the exit")
    func severalWaiters() async throws {
        let child = try SpawnedChild.spawn(
            "/bin/sh", arguments: ["-c", "exit 7"], environment: [:], input: .file("/dev/null"),
            output: .file("/dev/null"), error: .file("/dev/null"))
        let (ended, record) = child.watch()
        var first: [SpawnedChild.Termination] = []
        for await termination in child.termination() { first.append(termination) }
        var watched: [SpawnedChild.Termination] = []
        for await termination in ended { watched.append(termination) }
        var late: [SpawnedChild.Termination] = []
        for await termination in child.termination() { late.append(termination) }
        #expect(first == [.exited(7)])
        #expect(watched == [.exited(7)])
        #expect(late == [.exited(7)])
        #expect(record.termination == .exited(7))
    }

    @Test("a signal reaches a running child; one sent after the reaping changes nothing")
    func noSignalAfterReaping() async throws {
        let child = try SpawnedChild.spawn(
            "/bin/sleep", arguments: ["30"], environment: [:], input: .file("/dev/null"),
            output: .file("/dev/null"), error: .file("/dev/null"))
        child.send(SIGTERM)
        var endings: [SpawnedChild.Termination] = []
        for await termination in child.termination() { endings.append(termination) }
        #expect(endings == [.signaled(SIGTERM)])
        child.send(SIGKILL)  // reaped: dropped (the pid may be another process's now)
        // The old handle still reports the original ending.
        var again: [SpawnedChild.Termination] = []
        for await termination in child.termination() { again.append(termination) }
        #expect(again == [.signaled(SIGTERM)])
    }
}

#if os(Linux)
    import Foundation
    import Glibc
    import Testing

    @testable import SesameCLI

    #if canImport(FoundationNetworking)
        import FoundationNetworking
    #endif

    /// `sesame serve --thread-scheduling` (sched(7)): the policy of every thread of the server
    /// process, read from `/proc/<pid>/task/<tid>/stat` after the server has served requests
    /// (so the threads it creates for connections exist).
    @Suite("sesame serve thread scheduling")
    struct ServeThreadSchedulingTests {
        static let batchPolicy = 3
        static let idlePolicy = 5

        @Test("by default every thread of the server runs under SCHED_BATCH")
        func batchByDefault() async throws {
            let policies = try await Self.threadPolicies(serving: [])
            #expect(policies.count >= 4, "expected the server's event loop, pool and SQLite threads: \(policies)")
            #expect(policies.allSatisfy { $0 == Self.batchPolicy }, "\(policies)")
        }

        @Test("--thread-scheduling unchanged keeps the policy the process was started with")
        func unchanged() async throws {
            // The child inherits this process's policy (normally SCHED_OTHER) through posix_spawn.
            let started = Int(sched_getscheduler(0))
            #expect(started != Self.batchPolicy, "run the tests under SCHED_OTHER, not SCHED_BATCH")
            let policies = try await Self.threadPolicies(serving: ["--thread-scheduling", "unchanged"])
            #expect(!policies.isEmpty)
            #expect(policies.allSatisfy { $0 == started }, "\(policies)")
        }

        /// The decision `apply()` makes for each thread. (Starting a server under `chrt --idle`
        /// end to end is not a test a loaded machine can run: `SCHED_IDLE` gets no CPU while the
        /// other suites keep both cores busy.)
        @Test("a policy the operator chose (SCHED_IDLE, FIFO, RR, BATCH) is left as it is; only SCHED_OTHER moves")
        func operatorChoice() {
            let (other, fifo, roundRobin, idle) = (Int32(SCHED_OTHER), Int32(SCHED_FIFO), Int32(SCHED_RR), Int32(Self.idlePolicy))
            #expect(ThreadScheduling.replaces(other))
            for kept in [fifo, roundRobin, Int32(Self.batchPolicy), idle] {
                #expect(!ThreadScheduling.replaces(kept), "policy \(kept)")
            }
        }

        @Test("an unknown --thread-scheduling value is refused with the valid ones")
        func unknownValue() async throws {
            let result = try await CLIProcess.run(["serve", "--thread-scheduling", "fifo", "--port", "0"])
            #expect(result.status != 0)
            #expect(result.stderr.contains("batch") && result.stderr.contains("unchanged"), "\(result)")
        }

        /// Starts `sesame serve` with `arguments`, answers a few discovery requests, and returns
        /// the scheduling policy of each of its threads.
        static func threadPolicies(serving arguments: [String]) async throws -> [Int] {
            let temp = try TempDirectory("scheduling")
            defer { temp.remove() }
            let server = try CLIProcess.Started(
                ["serve", "--port", "0", "--data-dir", temp.path("data")] + arguments)
            let policies = try await server.whileRunning {
                let issuerLine = try await server.firstLine(startingWith: "Issuer: ")
                let issuer = String(issuerLine.dropFirst("Issuer: ".count))
                let discovery = try #require(URL(string: "\(issuer)/.well-known/openid-configuration"))
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for _ in 0..<8 {
                        group.addTask { _ = try await URLSession.shared.data(from: discovery) }
                    }
                    try await group.waitForAll()
                }
                return try Self.policies(of: server.pid)
            }
            #expect(try await server.terminate() == 0, "\(server.stderr())")
            return policies
        }

        /// Field 41 of `/proc/<pid>/task/<tid>/stat` (proc(5)), counted after the command name,
        /// which is in parentheses and may contain spaces.
        static func policies(of pid: Int32) throws -> [Int] {
            let tasks = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")
            return try tasks.compactMap { tid in
                guard let stat = try? String(contentsOfFile: "/proc/\(pid)/task/\(tid)/stat", encoding: .utf8),
                    let close = stat.lastIndex(of: ")")
                else { return nil }  // the thread ended meanwhile
                let fields = stat[stat.index(after: close)...].split(separator: " ")
                // fields[0] is field 3 (state), so field 41 is fields[38].
                guard fields.count > 38, let policy = Int(fields[38]) else {
                    throw CLIProcess.CLIError("unexpected /proc stat line: \(stat)")
                }
                return policy
            }
        }
    }
#endif

import Foundation
import StoreTesting
import Synchronization
import Testing
@testable import SesameStore

/// Maintenance jobs (the expired-data purge) run in one process of a deployment at a time:
/// on PostgreSQL a second store trying the same job while the first runs it skips it.
@Suite("Store: one process at a time for maintenance jobs")
struct ExclusiveJobTests {
    @Test("a job held by one store is skipped by another; afterwards it runs; other jobs are independent", arguments: StoreBackend.available)
    func exclusive(backend: StoreBackend) async throws {
        try await withSandboxStore(backend) { first, sandbox in
            let second = try await sandbox.open()
            let inside = AsyncStream<Void>.makeStream()
            let release = AsyncStream<Void>.makeStream()
            let holder = Task {
                try await first.runExclusively("purge-expired") {
                    inside.continuation.yield()
                    for await _ in release.stream { break }
                }
            }
            for await _ in inside.stream { break }

            let ranMeanwhile = Mutex(false)
            let skipped = try await second.runExclusively("purge-expired") { ranMeanwhile.withLock { $0 = true } }
            let otherJob = try await second.runExclusively("another-job") {}
            release.continuation.yield()
            #expect(try await holder.value)
            #expect(otherJob)
            if backend == .postgres {
                #expect(!skipped && !ranMeanwhile.withLock { $0 }, "the second process ran the job while the first held it")
            } else {
                #expect(skipped, "SQLite has one process: the job runs")
            }
            #expect(try await second.runExclusively("purge-expired") {}, "after the first finished, the job runs again")
            try await second.close()
        }
    }
}

/// Where CPU-bound blocking work runs, off Swift's cooperative pool so that it never stalls
/// other tasks: memory-hard password hashing takes tens of milliseconds and 64 MiB. The pool
/// bounds how many run at once. The server runs it on SwiftNIO's thread pool.
package protocol BlockingWorkPool: Sendable {
    /// The result of `work`, run on one of the pool's threads.
    func run<Result: Sendable>(_ work: @escaping @Sendable () throws -> Result) async throws -> Result
}

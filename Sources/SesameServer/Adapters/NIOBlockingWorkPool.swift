import NIOPosix
import SesameProvider

/// The provider's ``BlockingWorkPool`` on SwiftNIO's shared thread pool (one thread per core).
struct NIOBlockingWorkPool: BlockingWorkPool {
    static let shared = NIOBlockingWorkPool(pool: .singleton)

    let pool: NIOThreadPool

    func run<Result: Sendable>(_ work: @escaping @Sendable () throws -> Result) async throws -> Result {
        try await pool.runIfActive(work)
    }
}

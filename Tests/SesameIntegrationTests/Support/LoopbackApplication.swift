import Foundation
import Hummingbird
import Synchronization

/// A Hummingbird application on 127.0.0.1 and a free port, for the stand-ins the SDK suites
/// talk to over real HTTP (fake providers, echoing APIs): the port it bound and the task running
/// it (cancel it to stop).
enum LoopbackApplication {
    static func start(_ router: Router<BasicRequestContext>, what: String) async throws -> (port: Int, task: Task<Void, any Error>) {
        let port = Mutex<Int?>(nil)
        let ready = AsyncStream<Void>.makeStream()
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in
                port.withLock { $0 = channel.localAddress?.port }
                ready.continuation.yield()
            })
        let task = Task { try await app.runService() }
        for await _ in ready.stream { break }
        guard let bound = port.withLock({ $0 }) else { throw FixtureError("\(what) did not bind") }
        return (bound, task)
    }
}

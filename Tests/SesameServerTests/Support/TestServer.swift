import Foundation
import Logging
import SesameProtocol
import Synchronization
@testable import SesameServer

/// The real Sesame server, in process, on 127.0.0.1 and a free port, over a fresh SQLite file
/// in a unique temp directory, seeded with ``Fixtures``. Call ``stop()`` (or `restart()`) at
/// the end of each test; `stop` removes the directory.
struct TestServer: Sendable {
    let running: RunningServer
    let directory: URL
    let clock: TestClock

    var issuer: String { SesameServer.issuerIdentifier(running.issuer) }
    var baseURL: URL { running.issuer }
    var store: any IdentityStore { running.store }
    var keyRing: KeyRing { running.keyRing }

    static let hasher = ScryptPasswordHasher(logN: 10)

    /// Starts a server on a new temp directory and seeds it.
    static func start(seed: Bool = true) async throws -> TestServer {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("sesame-server-tests-\(UUID().uuidString)")
        let server = try await boot(directory: directory, clock: TestClock())
        if seed { try await Fixtures.seed(server.store) }
        return server
    }

    private static func boot(directory: URL, clock: TestClock) async throws -> TestServer {
        var configuration = ServerConfiguration(
            dataDirectory: DataDirectory(url: directory), port: 0, passwordHasher: hasher)
        configuration.now = { clock.now }
        var logger = Logger(label: "sesame.tests")
        logger.logLevel = ProcessInfo.processInfo.environment["SESAME_TEST_LOG"] == nil ? .error : .debug
        let running = try await SesameServer.start(configuration, logger: logger)
        return TestServer(running: running, directory: directory, clock: clock)
    }

    /// Stops the server and starts a new one on the same data directory (new port).
    func restart() async throws -> TestServer {
        try await running.shutdown()
        return try await Self.boot(directory: directory, clock: clock)
    }

    /// Stops the server and deletes its data directory.
    func stop() async throws {
        try await running.shutdown()
        try? FileManager.default.removeItem(at: directory)
    }

    func client() -> HTTPTestClient { HTTPTestClient(baseURL: baseURL) }
}

/// A clock the tests move forward instead of sleeping.
final class TestClock: Sendable {
    private let offset = Mutex<TimeInterval>(0)
    var now: Date { Date().addingTimeInterval(offset.withLock { $0 }) }
    func advance(by seconds: TimeInterval) { offset.withLock { $0 += seconds } }
}


/// Runs `body` against a fresh seeded server and always stops it.
func withTestServer<T>(_ body: (TestServer) async throws -> T) async throws -> T {
    let server = try await TestServer.start()
    do {
        let result = try await body(server)
        try await server.stop()
        return result
    } catch {
        try? await server.stop()
        throw error
    }
}

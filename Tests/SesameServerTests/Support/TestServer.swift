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
    /// The server's password hasher (``hasher`` unless a test passed a counting one).
    let passwordHasher: any PasswordHasher
    /// Changes to the default test configuration (kept across ``restart()``).
    let configure: @Sendable (inout ServerConfiguration) -> Void

    var issuer: String { IdentityServer.issuerIdentifier(running.issuer) }
    var baseURL: URL { running.issuer }
    var store: any IdentityStore { running.store }
    var keyRing: KeyRing { running.keyRing }

    static let hasher = ScryptPasswordHasher(logN: 10)

    /// Starts a server on a new temp directory and seeds it.
    static func start(
        seed: Bool = true, passwordHasher: any PasswordHasher = hasher,
        configure: @escaping @Sendable (inout ServerConfiguration) -> Void = { _ in }
    ) async throws -> TestServer {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("sesame-server-tests-\(UUID().uuidString)")
        let server = try await boot(
            directory: directory, clock: TestClock(), passwordHasher: passwordHasher, configure: configure)
        if seed { try await Fixtures.seed(server.store) }
        return server
    }

    private static func boot(
        directory: URL, clock: TestClock, passwordHasher: any PasswordHasher,
        configure: @escaping @Sendable (inout ServerConfiguration) -> Void
    ) async throws -> TestServer {
        var configuration = ServerConfiguration(
            dataDirectory: DataDirectory(url: directory), port: 0, passwordHasher: passwordHasher)
        configuration.now = { clock.now }
        configure(&configuration)
        var logger = Logger(label: "sesame.tests")
        logger.logLevel = ProcessInfo.processInfo.environment["SESAME_TEST_LOG"] == nil ? .error : .debug
        let running = try await IdentityServer.start(configuration, logger: logger)
        return TestServer(
            running: running, directory: directory, clock: clock, passwordHasher: passwordHasher,
            configure: configure)
    }

    /// Stops the server and starts a new one on the same data directory (new port).
    func restart() async throws -> TestServer {
        try await running.shutdown()
        return try await Self.boot(
            directory: directory, clock: clock, passwordHasher: passwordHasher, configure: configure)
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
    private struct State {
        var offset: TimeInterval = 0
        var frozenAt: Date?
    }

    private let state = Mutex(State())
    var now: Date { state.withLock { ($0.frozenAt ?? Date()).addingTimeInterval($0.offset) } }
    func advance(by seconds: TimeInterval) { state.withLock { $0.offset += seconds } }
    /// Stops real time from moving the clock: from now on only ``advance(by:)`` does, so
    /// durations the server reports (e.g. `Retry-After`) are exact even on a loaded machine.
    func freeze() { state.withLock { $0.frozenAt = $0.frozenAt ?? Date() } }
}


/// A ``TestServer/hasher`` that counts verifications, to prove a throttled attempt never
/// reaches the password hash.
final class CountingPasswordHasher: PasswordHasher {
    private let inner = TestServer.hasher
    private let count = Mutex(0)

    /// `verify` calls so far.
    var verifications: Int { count.withLock { $0 } }

    func hash(_ password: String) throws -> String { try inner.hash(password) }
    func verify(_ password: String, against phc: String) -> Bool {
        count.withLock { $0 += 1 }
        return inner.verify(password, against: phc)
    }
    func needsRehash(_ phc: String) -> Bool { inner.needsRehash(phc) }
}

/// Runs `body` against a fresh seeded server and always stops it.
func withTestServer<T>(
    passwordHasher: any PasswordHasher = TestServer.hasher,
    configure: @escaping @Sendable (inout ServerConfiguration) -> Void = { _ in },
    _ body: (TestServer) async throws -> T
) async throws -> T {
    let server = try await TestServer.start(passwordHasher: passwordHasher, configure: configure)
    do {
        let result = try await body(server)
        try await server.stop()
        return result
    } catch {
        try? await server.stop()
        throw error
    }
}

import Foundation
import Logging
import SesameProtocol
import Synchronization
import SesameServer
import TestSupport

/// The real Sesame server, in process, on 127.0.0.1 and a free port, over a fresh SQLite file
/// in a unique temp directory, seeded with ``Fixtures``. Call ``stop()`` (or `restart()`) at
/// the end of each test; `stop` removes the directory.
public struct TestServer: Sendable {
    public let running: RunningServer
    public let directory: URL
    public let clock: ManualClock
    /// The server's password hasher (``hasher`` unless a test passed a counting one).
    public let passwordHasher: any PasswordHasher
    /// Changes to the default test configuration (kept across ``restart()``).
    public let configure: @Sendable (inout ServerConfiguration) -> Void

    public var issuer: String { IdentityServer.issuerIdentifier(running.issuer) }
    public var baseURL: URL { running.issuer }
    public var store: any IdentityStore { running.store }
    public var keyRing: KeyRing { running.keyRing }

    public static let hasher = ScryptPasswordHasher(logN: 10)

    /// Starts a server on a new temp directory and seeds it.
    public static func start(
        seed: Bool = true, passwordHasher: any PasswordHasher = hasher,
        configure: @escaping @Sendable (inout ServerConfiguration) -> Void = { _ in }
    ) async throws -> TestServer {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("sesame-server-tests-\(UUID().uuidString)")
        let server = try await boot(
            directory: directory, clock: ManualClock(), passwordHasher: passwordHasher, configure: configure)
        if seed { try await Fixtures.seed(server.store) }
        return server
    }

    private static func boot(
        directory: URL, clock: ManualClock, passwordHasher: any PasswordHasher,
        configure: @escaping @Sendable (inout ServerConfiguration) -> Void
    ) async throws -> TestServer {
        var configuration = ServerConfiguration(
            dataDirectory: DataDirectory(url: directory), port: 0, passwordHasher: passwordHasher)
        configuration.now = { clock.now() }
        configure(&configuration)
        var logger = Logger(label: "sesame.tests")
        logger.logLevel = ProcessInfo.processInfo.environment["SESAME_TEST_LOG"] == nil ? .error : .debug
        let running = try await IdentityServer.start(configuration, logger: logger)
        return TestServer(
            running: running, directory: directory, clock: clock, passwordHasher: passwordHasher,
            configure: configure)
    }

    /// Stops the server and starts a new one on the same data directory (new port).
    public func restart() async throws -> TestServer {
        try await running.shutdown()
        return try await Self.boot(
            directory: directory, clock: clock, passwordHasher: passwordHasher, configure: configure)
    }

    /// Stops the server and deletes its data directory.
    public func stop() async throws {
        try await running.shutdown()
        try? FileManager.default.removeItem(at: directory)
    }

    public func client() -> HTTPTestClient { HTTPTestClient(baseURL: baseURL) }
}

/// A ``TestServer/hasher`` that counts verifications, to prove a throttled attempt never
/// reaches the password hash.
public final class CountingPasswordHasher: PasswordHasher {
    public init() {}
    private let inner = TestServer.hasher
    private let count = Mutex(0)

    /// `verify` calls so far.
    public var verifications: Int { count.withLock { $0 } }

    public func hash(_ password: String) throws -> String { try inner.hash(password) }
    public func verify(_ password: String, against phc: String) -> Bool {
        count.withLock { $0 += 1 }
        return inner.verify(password, against: phc)
    }
    public func needsRehash(_ phc: String) -> Bool { inner.needsRehash(phc) }
}

/// Runs `body` against a fresh seeded server and always stops it.
public func withTestServer<T>(
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

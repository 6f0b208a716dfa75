import Foundation
import Logging
import SesameProtocol
import Synchronization
import SesameServer
import StoreTesting
import TestSupport

/// The real Sesame server, in process, on 127.0.0.1 and a free port, over a fresh SQLite file
/// in a unique temp directory, seeded with ``Fixtures``. Call ``stop()`` (or `restart()`) at
/// the end of each test; `stop` removes the directory.
public struct TestServer: Sendable {
    public let running: RunningServer
    public let sandbox: StoreSandbox
    public var directory: URL { sandbox.directory }
    public let clock: ManualClock
    /// The RSA keys lent to this sandbox (returned by ``stop()``).
    let keys: RSAKeyLease
    /// The server's password hasher (``hasher`` unless a test passed a counting one).
    public let passwordHasher: any PasswordHasher
    /// Changes to the default test configuration (kept across ``restart()``).
    public let configure: @Sendable (inout ServerConfiguration) -> Void

    public var issuer: String { IdentityServer.issuerIdentifier(running.issuer) }
    public var baseURL: URL { running.issuer }
    public var store: any ProviderStore { running.store }
    public var keyRing: KeyRing { running.keyRing }

    /// scrypt at ln=4 (16 KiB; the product's is 15, 32 MiB): BoringSSL is compiled without
    /// optimization in a debug build, and the suites' sign-ins at ln=10 were 5% of its CPU.
    public static let hasher = ScryptPasswordHasher(logN: 4)

    /// Starts a server on a new sandbox (a temp directory, and for PostgreSQL a database of its
    /// own) and seeds it.
    public static func start(
        _ backend: StoreBackend = .sqlite, seed: Bool = true, passwordHasher: any PasswordHasher = hasher,
        configure: @escaping @Sendable (inout ServerConfiguration) -> Void = { _ in }
    ) async throws -> TestServer {
        let sandbox = try await StoreSandbox.make(backend)
        let keys = RSAKeyLease()
        let server: TestServer
        do {
            server = try await boot(
                sandbox: sandbox, keys: keys, clock: ManualClock(), passwordHasher: passwordHasher,
                configure: configure)
        } catch {
            await sandbox.dispose()
            keys.end()
            throw error
        }
        if seed { try await Fixtures.seed(server.store) }
        return server
    }

    /// Another server on the same sandbox (the same database and master key), as a second
    /// `sesame serve` process of one deployment would be; stop it with ``shutdown()``.
    /// The sibling names itself with this server's issuer, as every process behind one load
    /// balancer does; reach it with ``portClient()``.
    public func sibling() async throws -> TestServer {
        let issuer = running.issuer
        let configure = self.configure
        return try await Self.boot(sandbox: sandbox, keys: keys, clock: clock, passwordHasher: passwordHasher) { configuration in
            configure(&configuration)
            configuration.issuer = issuer
        }
    }

    /// A client for this server's own port (a sibling's issuer names the first server's).
    public func portClient() -> HTTPTestClient {
        HTTPTestClient(baseURL: URL(string: "http://127.0.0.1:\(running.port)")!)
    }

    private static func boot(
        sandbox: StoreSandbox, keys: RSAKeyLease, clock: ManualClock, passwordHasher: any PasswordHasher,
        configure: @escaping @Sendable (inout ServerConfiguration) -> Void
    ) async throws -> TestServer {
        var configuration = ServerConfiguration(
            dataDirectory: sandbox.dataDirectory, port: 0, passwordHasher: passwordHasher)
        if sandbox.backend == .postgres { configuration.database = sandbox.location }
        configuration.now = { clock.now() }
        configuration.rsaKeySource = keys.source
        // Suites of other features make many requests from one address; the challenge suites
        // turn challenges on.
        configuration.challenges = .off
        configure(&configuration)
        var logger = Logger(label: "sesame.tests")
        logger.logLevel = ProcessInfo.processInfo.environment["SESAME_TEST_LOG"] == nil ? .error : .debug
        let running = try await IdentityServer.start(configuration, logger: logger)
        return TestServer(
            running: running, sandbox: sandbox, clock: clock, keys: keys, passwordHasher: passwordHasher,
            configure: configure)
    }

    /// Stops the server and starts a new one on the same data directory (new port).
    public func restart() async throws -> TestServer {
        try await running.shutdown()
        return try await Self.boot(
            sandbox: sandbox, keys: keys, clock: clock, passwordHasher: passwordHasher, configure: configure)
    }

    /// Stops this server only (a sibling's sandbox stays).
    public func shutdown() async throws {
        try await running.shutdown()
    }

    /// Stops the server and deletes its sandbox (directory and database).
    public func stop() async throws {
        try await running.shutdown()
        await sandbox.dispose()
        keys.end()
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
    _ backend: StoreBackend = .sqlite,
    passwordHasher: any PasswordHasher = TestServer.hasher,
    configure: @escaping @Sendable (inout ServerConfiguration) -> Void = { _ in },
    _ body: (TestServer) async throws -> T
) async throws -> T {
    let server = try await TestServer.start(backend, passwordHasher: passwordHasher, configure: configure)
    do {
        let result = try await body(server)
        try await server.stop()
        return result
    } catch {
        try? await server.stop()
        throw error
    }
}

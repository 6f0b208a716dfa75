import Foundation
import Logging
@testable import SesameServer

/// Like ``withTestServer(_:)``, with a chance to change the ``ServerConfiguration`` first
/// (e.g. an SMTP relay). Seeded with ``Fixtures``; the data directory is removed afterwards.
func withConfiguredServer<T>(
    _ configure: (inout ServerConfiguration) -> Void, _ body: (TestServer) async throws -> T
) async throws -> T {
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("sesame-server-tests-\(UUID().uuidString)")
    let clock = TestClock()
    var configuration = ServerConfiguration(
        dataDirectory: DataDirectory(url: directory), port: 0, passwordHasher: TestServer.hasher)
    configuration.now = { clock.now }
    configure(&configuration)
    var logger = Logger(label: "sesame.tests")
    logger.logLevel = ProcessInfo.processInfo.environment["SESAME_TEST_LOG"] == nil ? .error : .debug
    let server = TestServer(
        running: try await SesameServer.start(configuration, logger: logger), directory: directory, clock: clock,
        passwordHasher: configuration.passwordHasher)
    do {
        try await Fixtures.seed(server.store)
        let result = try await body(server)
        try await server.stop()
        return result
    } catch {
        try? await server.stop()
        throw error
    }
}

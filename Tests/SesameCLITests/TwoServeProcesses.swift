import Foundation
import SesameTesting
import StoreTesting
import Testing

/// Two real `sesame serve` processes on one PostgreSQL database, for the tests of what a
/// deployment's processes share (the kill test, shared limits and challenges).
enum TwoServeProcesses {
    /// The sandbox database as a `SESAME_DATABASE_URL`.
    static func databaseURL(_ sandbox: StoreSandbox) throws -> String {
        let url = try #require(sandbox.postgres)
        return "postgres://\(url.username):\(url.password ?? "")@\(url.host):\(url.port)/\(url.database)?sslmode=disable"
    }

    /// Starts `sesame <arguments>` twice, the second once the first serves (so the first has
    /// migrated the database); on a failure the first is killed.
    static func start(
        _ arguments: [String], environment: [String: String]
    ) async throws -> (CLIProcess.Started, CLIProcess.Started) {
        let first = try CLIProcess.Started(arguments, environment: environment)
        do {
            _ = try await first.firstLine(startingWith: "Press Ctrl-C")
            let second = try CLIProcess.Started(arguments, environment: environment)
            _ = try await second.firstLine(startingWith: "Press Ctrl-C")
            return (first, second)
        } catch {
            _ = try? await first.kill()
            throw error
        }
    }

    /// Starts `sesame <arguments>` twice on `sandbox`'s database (``start(_:environment:)``),
    /// runs `body` with an HTTP client for each process (if it throws, both are terminated
    /// before the error propagates), then stops both and expects each to exit with 0.
    static func run(
        _ arguments: [String], on sandbox: StoreSandbox, _ body: ([HTTPTestClient]) async throws -> Void
    ) async throws {
        let (first, second) = try await start(arguments, environment: ["SESAME_DATABASE_URL": try databaseURL(sandbox)])
        let clients = [
            HTTPTestClient(baseURL: try await listening(first)),
            HTTPTestClient(baseURL: try await listening(second)),
        ]
        try await second.whileRunning {
            try await first.whileRunning { try await body(clients) }
        }
        #expect(try await first.terminate() == 0)
        #expect(try await second.terminate() == 0)
    }

    /// The URL a process serves on, from its `Listening:` line.
    static func listening(_ server: CLIProcess.Started) async throws -> URL {
        let line = try await server.firstLine(startingWith: "Listening: ")
        return try #require(URL(string: "http://" + line.dropFirst("Listening: ".count)))
    }
}

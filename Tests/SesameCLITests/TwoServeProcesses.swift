import Foundation
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

    /// The URL a process serves on, from its `Listening:` line.
    static func listening(_ server: CLIProcess.Started) async throws -> URL {
        let line = try await server.firstLine(startingWith: "Listening: ")
        return try #require(URL(string: "http://" + line.dropFirst("Listening: ".count)))
    }
}

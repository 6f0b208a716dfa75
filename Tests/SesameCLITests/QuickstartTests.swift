import ChildProcess
import Foundation
import Testing

/// The README's desktop app (`Examples/Quickstart`, `sesame-quickstart`), built by the SDK's own
/// package and by this one, run as a newcomer runs it (issue #45): against `sesame serve` and
/// `sesame example-api` as real processes, signing in through the system browser (`$BROWSER`, the
/// tests' scripted browser), calling the API, refreshing, signing out.
@Suite("The quickstart app against a real server")
struct QuickstartTests {
    static var executable: URL {
        CLIProcess.executable.deletingLastPathComponent().appendingPathComponent("sesame-quickstart")
    }

    @Test("signs in through the browser, calls the example API, refreshes and signs out; then says what is wrong with a bad issuer")
    func runsEndToEnd() async throws {
        let temp = try TempDirectory("quickstart")
        defer { temp.remove() }
        let data = temp.path("data")
        let password = "alice-\(UUID().uuidString)"
        let addClient = try await CLIProcess.run([
            "client", "add", "quickstart", "--redirect-uri", "http://127.0.0.1/callback", "--first-party", "--data-dir", data,
        ])
        try #require(addClient.status == 0, "\(addClient)")
        let addUser = try await CLIProcess.run(
            ["user", "add", "alice", "--email", "alice@example.com", "--password-stdin", "--data-dir", data], stdin: password + "\n")
        try #require(addUser.status == 0, "\(addUser)")
        let server = try CLIProcess.Started(["serve", "--port", "0", "--data-dir", data])
        try await server.whileRunning {
            let issuer = String(try await server.firstLine(startingWith: "Issuer: ").dropFirst("Issuer: ".count))
            let api = try CLIProcess.Started(["example-api", "--issuer", issuer, "--port", "0"])
            try await api.whileRunning {
                let base = String(try await api.firstLine(startingWith: "Example API: ").dropFirst("Example API: ".count))
                var environment = try TestBrowser.install(
                    in: temp.url, username: "alice", password: password)
                environment["HOME"] = temp.path("home")
                environment["XDG_DATA_HOME"] = temp.path("home/data")
                environment["SESAME_ISSUER"] = issuer
                environment["SESAME_API"] = "\(base)/v1/me"
                let run = try await Self.run(environment: environment, in: temp)
                #expect(run.status == 0, "\(run.output)")
                #expect(run.output.contains("1. signing in through the browser"), "\(run.output)")
                #expect(run.output.contains("signed in as alice@example.com"), "the account's email, from userinfo: \(run.output)")
                #expect(run.output.contains("2. GET /v1/me → 200"), "\(run.output)")
                #expect(run.output.contains("\"client_id\":\"quickstart\""), "\(run.output)")
                #expect(run.output.contains("3. refreshed; GET /v1/me → 200"), "\(run.output)")
                #expect(run.output.contains("4. signed out (revoked at the server: true)"), "\(run.output)")
                #expect(!run.output.contains(password))

                environment["SESAME_ISSUER"] = "http://127.0.0.1:1"
                let refused = try await Self.run(environment: environment, in: temp)
                #expect(refused.status == 1)
                #expect(refused.output.contains("sesame-quickstart:"), "\(refused.output)")
            }
            _ = try await api.terminate()
        }
        _ = try await server.terminate()
    }

    /// Runs the quickstart to its end (at most two minutes); its status and both streams.
    static func run(environment: [String: String], in temp: TempDirectory) async throws -> (status: Int32, output: String) {
        let log = temp.path("quickstart-\(UUID().uuidString).log")
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        var env = ProcessInfo.processInfo.environment
        for (key, value) in environment { env[key] = value }
        let child = try SpawnedChild.spawn(
            executable.path, arguments: [], environment: env, input: .file("/dev/null"), output: .file(log), error: .file(log))
        let (exit, _) = child.watch()
        let status = try await CLIProcess.awaitExit(exit, child: child, arguments: ["sesame-quickstart"], timeout: .seconds(120))
        return (status, (try? String(contentsOfFile: log, encoding: .utf8)) ?? "")
    }
}

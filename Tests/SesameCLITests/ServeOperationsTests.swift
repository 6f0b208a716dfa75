import Foundation
import StoreTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `sesame serve` for operators: the metrics switches and the config file's `database` key.
@Suite("sesame serve: metrics and the config file's database")
struct ServeOperationsTests {
    @Test("--metrics-port 0 prints where the metrics are; a scrape there counts the requests served")
    func metricsPort() async throws {
        let temp = try TempDirectory("metrics")
        defer { temp.remove() }
        let server = try CLIProcess.Started(["serve", "--port", "0", "--metrics-port", "0", "--data-dir", temp.path("data")])
        let text = try await server.whileRunning {
            let issuer = String(try await server.firstLine(startingWith: "Issuer: ").dropFirst("Issuer: ".count))
            let line = try await server.firstLine(startingWith: "Metrics: ")
            let metricsURL = try #require(URL(string: String(line.dropFirst("Metrics: ".count))))
            #expect(metricsURL.path == "/metrics" && metricsURL.port != URL(string: issuer)?.port)
            _ = try await URLSession.shared.data(from: URL(string: "\(issuer)/jwks")!)
            let (body, response) = try await URLSession.shared.data(from: metricsURL)
            #expect((response as? HTTPURLResponse)?.statusCode == 200)
            return String(decoding: body, as: UTF8.self)
        }
        #expect(try await server.terminate() == 0, "\(server.stderr())")
        #expect(text.contains(#"sesame_http_requests_total{route="/jwks",method="GET",status="200"} 1"#), "\(text)")
    }

    @Test("a metrics port that is taken is one error line at start, exit 1")
    func metricsPortTaken() async throws {
        let temp = try TempDirectory("metrics-taken")
        defer { temp.remove() }
        let first = try CLIProcess.Started(["serve", "--port", "0", "--metrics-port", "0", "--data-dir", temp.path("one")])
        let taken = try await first.whileRunning {
            let line = try await first.firstLine(startingWith: "Metrics: ")
            return try #require(URL(string: String(line.dropFirst("Metrics: ".count)))?.port)
        }
        let second = try await CLIProcess.run(
            ["serve", "--port", "0", "--metrics-port", String(taken), "--data-dir", temp.path("two")])
        _ = try await first.terminate()
        #expect(second.status == 1)
        #expect(second.stderr.contains("could not listen on 127.0.0.1:\(taken)"), "\(second)")
    }

    @Test("a metrics token shorter than 16 characters, or a token and a metrics port together, is one error line")
    func metricsMisconfigured() async throws {
        let temp = try TempDirectory("metrics-bad")
        defer { temp.remove() }
        let short = try await CLIProcess.run(
            ["serve", "--port", "0", "--data-dir", temp.path("data")], environment: ["SESAME_METRICS_TOKEN": "short"])
        #expect(short.status == 1)
        #expect(short.stderrLines.count == 1 && short.stderr.contains("too short"), "\(short)")
        #expect(!short.stderr.contains("short\""))
        let both = try await CLIProcess.run(
            ["serve", "--port", "0", "--metrics-port", "0", "--data-dir", temp.path("data")],
            environment: ["SESAME_METRICS_TOKEN": String(repeating: "t", count: 32)])
        #expect(both.status == 1)
        #expect(both.stderr.contains("Choose one"), "\(both)")
    }

    @Test("--rate-limit: an unknown class or a malformed limit is one error line that says how to write it")
    func rateLimitOptions() async throws {
        let temp = try TempDirectory("rate-limit-bad")
        defer { temp.remove() }
        let unknown = try await CLIProcess.run(["serve", "--port", "0", "--data-dir", temp.path("data"), "--rate-limit", "tokens=5/60"])
        #expect(unknown.status == 1)
        #expect(unknown.stderrLines.count == 1 && unknown.stderr.contains("unknown class 'tokens'"), "\(unknown)")
        let malformed = try await CLIProcess.run(["serve", "--port", "0", "--data-dir", temp.path("data"), "--rate-limit", "token=5"])
        #expect(malformed.status == 1)
        #expect(malformed.stderr.contains("REQUESTS/SECONDS"), "\(malformed)")
    }

    @Test(
        "the config file's database key puts serve on PostgreSQL when neither --database nor SESAME_DATABASE_URL is given",
        .enabled(if: StoreBackend.postgresURL != nil || StoreBackend.postgresRequired, "no PostgreSQL here; CI runs this"))
    func configFileDatabase() async throws {
        let sandbox = try await StoreSandbox.make(.postgres)
        let temp = try TempDirectory("config-db")
        defer { temp.remove() }
        let url = try #require(sandbox.postgres)
        let text = "postgres://\(url.username):\(url.password ?? "")@\(url.host):\(url.port)/\(url.database)?sslmode=disable"
        let config = temp.url.appendingPathComponent("sesame.yaml")
        try Data(
            """
            database: \(text)
            clients:
              - client_id: config-db-app
                redirect_uris: [http://127.0.0.1/callback]
            """.utf8
        ).write(to: config)
        let server = try CLIProcess.Started(
            ["serve", "--port", "0", "--data-dir", temp.path("data"), "--config", config.path],
            environment: ["SESAME_DATABASE_URL": ""])
        _ = try await server.whileRunning { try await server.firstLine(startingWith: "Press Ctrl-C") }
        #expect(try await server.terminate() == 0, "\(server.stderr())")
        let stdout = server.stdout()
        #expect(stdout.contains("Database: PostgreSQL at postgres://sesame:***@"), "\(stdout)")
        #expect(!stdout.contains(url.password ?? "-"), "the password is never printed")
        // The client landed in PostgreSQL, not in the data directory's SQLite file.
        let listed = try await CLIProcess.run(["client", "list", "--data-dir", temp.path("other"), "--database", text])
        #expect(listed.stdout.contains("config-db-app"), "\(listed)")
        #expect(!FileManager.default.fileExists(atPath: temp.path("data") + "/sesame.sqlite"))
        await sandbox.dispose()
    }
}

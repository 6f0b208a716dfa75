import Foundation
import SesameTesting
import Testing

/// `sesame audit` reads what a running `sesame serve` decided, and `sesame login --password`
/// solves the server's challenge with a progress line (docs/abuse-protection.md), each as the
/// real binary.
@Suite("sesame audit, challenges from the CLI")
struct AuditCommandTests {
    @Test("login --password solves an always-on challenge; audit lists admin changes, the challenge and the sign-ins, filtered and as JSON")
    func auditAfterChallengedLogin() async throws {
        let temp = try TempDirectory("audit")
        defer { temp.remove() }
        let data = temp.path("data")
        let password = "alice-\(UUID().uuidString)"
        let addClient = try await CLIProcess.run([
            "client", "add", "cli-test", "--redirect-uri", "http://127.0.0.1/callback", "--first-party", "--data-dir", data,
        ])
        try #require(addClient.status == 0, "\(addClient)")
        let addUser = try await CLIProcess.run(
            ["user", "add", "alice", "--email", "alice@example.com", "--password-stdin", "--data-dir", data],
            stdin: password + "\n")
        try #require(addUser.status == 0, "\(addUser)")

        let server = try CLIProcess.Started([
            "serve", "--port", "0", "--data-dir", data, "--challenge", "sign_in=always", "--challenge-difficulty", "12",
        ])
        try await server.whileRunning {
            let issuer = String(try await server.firstLine(startingWith: "Issuer: ").dropFirst("Issuer: ".count))
            let config = temp.path("config")
            let login = try await CLIProcess.run(
                ["login", "--password", "--issuer", issuer, "--client-id", "cli-test", "--config-dir", config],
                stdin: "alice\n\(password)\n")
            try #require(login.status == 0, "\(login)")
            #expect(login.stderr.contains("Security check: solving a 12-bit proof of work"), "\(login.stderr)")
            #expect(login.stderr.contains("Security check solved in"), "\(login.stderr)")
            let wrong = try await CLIProcess.run(
                ["login", "--password", "--issuer", issuer, "--client-id", "cli-test", "--config-dir", config],
                stdin: "alice\nnot the password\n")
            #expect(wrong.status != 0)

            // Records reach the store within a second.
            var events: [String] = []
            for _ in 0..<50 {
                let json = try await CLIProcess.run(["audit", "--json", "--data-dir", data])
                try #require(json.status == 0, "\(json)")
                let records = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
                events = records.compactMap { $0["event"] as? String }
                if events.contains("sign_in.failed") { break }
                try await Task.sleep(for: .milliseconds(100))
            }
            #expect(
                events == [
                    "admin.client_added", "admin.user_added", "challenge.issued", "challenge.solved", "sign_in.succeeded",
                    "challenge.issued", "challenge.solved", "sign_in.failed",
                ], "\(events)")

            let alice = try await CLIProcess.run(["audit", "--user", "alice", "--event", "sign_in.", "--data-dir", data])
            try #require(alice.status == 0, "\(alice)")
            let lines = alice.stdout.split(separator: "\n")
            #expect(lines.count == 1 && lines[0].contains("sign_in.succeeded") && lines[0].contains("client=cli-test"), "\(alice.stdout)")
            #expect(lines.first?.contains("from=127.0.0.1") == true)

            let refused = try await CLIProcess.run(["audit", "--event", "challenge.refused", "--since", "1h", "--data-dir", data])
            #expect(refused.status == 0 && refused.stdout.contains("No matching audit records."), "\(refused)")
            let future = try await CLIProcess.run(["audit", "--since", "2100-01-01T00:00:00Z", "--data-dir", data])
            #expect(future.stdout.contains("No matching audit records."), "\(future)")
            let bad = try await CLIProcess.run(["audit", "--since", "yesterday", "--data-dir", data])
            #expect(bad.status == 1 && bad.stderr.contains("--since"), "\(bad)")
            #expect(!(try await CLIProcess.run(["audit", "--data-dir", data])).stdout.contains(password))
        }
        #expect(try await server.terminate() == 0)
    }

    @Test("serve refuses unknown challenge endpoints, modes and kinds with one error line")
    func challengeOptions() async throws {
        let temp = try TempDirectory("challenge-options")
        defer { temp.remove() }
        let data = temp.path("data")
        for (arguments, expected) in [
            (["--challenge", "login=always"], "sign_in, sign_up, password_reset"),
            (["--challenge", "sign_in=sometimes"], "automatic, always or off"),
            (["--challenge-kind", "captcha"], "proof_of_work or clear_pass"),
            (["--challenge-difficulty", "50"], "between 0 and 40"),
            (["--audit-retention=-1"], "--audit-retention"),
        ] {
            let result = try await CLIProcess.run(["serve", "--port", "0", "--data-dir", data] + arguments)
            #expect(result.status == 1, "\(arguments): \(result)")
            #expect(result.stderr.contains(expected), "\(arguments): \(result.stderr)")
        }
    }
}

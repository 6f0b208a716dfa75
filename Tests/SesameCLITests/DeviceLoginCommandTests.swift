import Foundation
import SesameProtocol
import SesameTesting
import Testing

/// `sesame login --device` (RFC 8628) as the real binary against `sesame serve`: the CLI prints
/// the code and the addresses on stderr and waits; a scripted "phone" (``DeviceApproval`` over
/// real HTTP) opens the complete URI, signs in on the hosted login page and approves or denies;
/// the CLI then reports the signed-in account, or the denial.
@Suite("sesame login --device")
struct DeviceLoginCommandTests {
    /// The user's phone: alice on the verification page.
    static func phone(_ password: String) -> DeviceApproval {
        DeviceApproval(login: HostedLogin(username: "alice", password: password))
    }

    func withServe(_ body: (_ temp: TempDirectory, _ issuer: String, _ password: String) async throws -> Void) async throws {
        let temp = try TempDirectory("devlogin")
        defer { temp.remove() }
        let data = temp.path("data")
        let password = "alice-\(UUID().uuidString)"
        let addClient = try await CLIProcess.run([
            "client", "add", "tv-cli", "--grant", "device-code", "--grant", "refresh_token", "--data-dir", data,
        ])
        try #require(addClient.status == 0, "\(addClient)")
        let addUser = try await CLIProcess.run(
            ["user", "add", "alice", "--email", "alice@example.com", "--password-stdin", "--data-dir", data],
            stdin: password + "\n")
        try #require(addUser.status == 0, "\(addUser)")
        let server = try CLIProcess.Started(["serve", "--port", "0", "--data-dir", data])
        try await server.whileRunning {
            let issuerLine = try await server.firstLine(startingWith: "Issuer: ")
            try await body(temp, String(issuerLine.dropFirst("Issuer: ".count)), password)
        }
        let status = try await server.terminate()
        #expect(status == 0, "serve should exit cleanly: \(server.stderr())")
    }

    /// Starts `sesame login --device` and returns it with the complete URI it printed.
    func startLogin(_ arguments: [String]) async throws -> (CLIProcess.Started, String) {
        let login = try CLIProcess.Started(["login", "--device"] + arguments)
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            let lines = login.stderr().split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            if let complete = lines.first(where: { $0.contains("user_code=") }) { return (login, complete) }
            try await Task.sleep(for: .milliseconds(50))
        }
        _ = try? await login.kill()
        throw CLIProcess.CLIError("sesame login --device printed no verification_uri_complete: \(login.stderr())")
    }

    @Test("approved on the other device: the code and both addresses are printed, then the account; with --dpop the token is bound", arguments: [false, true])
    func approved(dpop: Bool) async throws {
        try await withServe { temp, issuer, password in
            let config = temp.path("config")
            let (login, complete) = try await startLogin(
                ["--issuer", issuer, "--client-id", "tv-cli", "--device-name", "Test shell", "--config-dir", config]
                    + (dpop ? ["--dpop"] : []))
            let approval = try await Self.phone(password).decide(.approve, at: try #require(URL(string: complete)))
            #expect(approval.body.contains("Device connected"), "\(approval.body)")
            let status = try await login.waitForExit(timeout: .seconds(60))
            #expect(status == 0, "\(login.stderr())")
            #expect(login.stdout().contains("Signed in as alice"), "\(login.stdout())")
            let prompt = login.stderr()
            #expect(prompt.contains("\(issuer)/device\n"), "the verification URI on a line of its own: \(prompt)")
            #expect(prompt.contains("enter the code"))
            #expect(prompt.contains("Or open this link, which has the code filled in"))

            let token = try await CLIProcess.run(["token"], environment: ["SESAME_CONFIG_DIR": config])
            let accessToken = token.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            let payload = accessToken.split(separator: ".").dropFirst().first.flatMap { Base64URL.decode(String($0)) }
            let claims = payload.flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }
            #expect(claims?["client_id"] as? String == "tv-cli", "\(token)")
            #expect((claims?["cnf"] != nil) == dpop, "\(token)")
        }
    }

    @Test("denied on the other device: exit 1 and one line saying so")
    func denied() async throws {
        try await withServe { temp, issuer, password in
            let (login, complete) = try await startLogin(
                ["--issuer", issuer, "--client-id", "tv-cli", "--config-dir", temp.path("config")])
            let denial = try await Self.phone(password).decide(.deny, at: try #require(URL(string: complete)))
            #expect(denial.body.contains("Request denied"), "\(denial.body)")
            let status = try await login.waitForExit(timeout: .seconds(60))
            #expect(status == 1)
            #expect(login.stderr().contains("error: the sign-in was denied on the other device"), "\(login.stderr())")
        }
    }

    @Test("--device refuses the options of the other sign-ins")
    func refusedCombinations() async throws {
        for extra in [["--password"], ["--passkey"], ["--no-browser"], ["--login-hint", "alice"]] {
            let result = try await CLIProcess.run(["login", "--device", "--issuer", "http://127.0.0.1:9", "--client-id", "x"] + extra)
            #expect(result.status == 64, "\(extra): \(result)")
            #expect(result.stderr.contains("--device signs in by approving on another device"), "\(result)")
        }
        let alone = try await CLIProcess.run(["login", "--device-name", "TV", "--issuer", "http://127.0.0.1:9", "--client-id", "x"])
        #expect(alone.status == 64, "\(alone)")
    }
}

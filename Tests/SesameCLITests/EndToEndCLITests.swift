import Foundation
import Testing

/// `sesame serve` in the background, then the terminal client commands against it, each run as
/// a real subprocess with its own config directory.
@Suite("sesame serve + login/whoami/token/curl/accounts/switch/logout")
struct EndToEndCLITests {
    @Test("a person signs in from the terminal, uses the account and signs out")
    func terminalSession() async throws {
        let temp = try TempDirectory("e2e")
        defer { temp.remove() }
        let data = temp.path("data")
        let config = temp.path("config")
        let alicePassword = "alice-\(UUID().uuidString)"
        let bobPassword = "bob-\(UUID().uuidString)"

        let addClient = try await CLIProcess.run([
            "client", "add", "cli-test", "--redirect-uri", "http://127.0.0.1/callback",
            "--data-dir", data,
        ])
        try #require(addClient.status == 0, "\(addClient)")
        for (name, password) in [("alice", alicePassword), ("bob", bobPassword)] {
            let addUser = try await CLIProcess.run(
                ["user", "add", name, "--email", "\(name)@example.com", "--password-stdin", "--data-dir", data],
                stdin: password + "\n")
            try #require(addUser.status == 0, "\(addUser)")
            #expect(!addUser.stdout.contains(password) && !addUser.stderr.contains(password))
        }

        let server = try CLIProcess.Started(["serve", "--port", "0", "--data-dir", data])
        try await server.whileRunning {
            let issuerLine = try await server.firstLine(startingWith: "Issuer: ")
            let issuer = String(issuerLine.dropFirst("Issuer: ".count))
            #expect(issuer.hasPrefix("http://127.0.0.1:"))
            #expect(server.stdout().split(separator: "\n").first.map(String.init) == issuerLine)
            try await exercise(
                issuer: issuer, config: config, temp: temp,
                alice: alicePassword, bob: bobPassword)
        }
        let status = try await server.terminate()
        #expect(status == 0, "serve should exit cleanly on SIGTERM: \(server.stderr())")
    }

    private func exercise(
        issuer: String, config: String, temp: TempDirectory, alice: String, bob: String
    ) async throws {
        let aliceBrowser = try TestBrowser.install(in: temp.url, username: "alice", password: alice)
        let login = try await CLIProcess.run(
            ["login", "--issuer", issuer, "--client-id", "cli-test", "--config-dir", config],
            environment: aliceBrowser)
        try #require(login.status == 0, "\(login)")
        #expect(login.stdout.contains("alice@example.com"))

        // Later commands find the profile through SESAME_CONFIG_DIR alone.
        let env = ["SESAME_CONFIG_DIR": config]

        let whoami = try await CLIProcess.run(["whoami", "--json"], environment: env)
        try #require(whoami.status == 0, "\(whoami)")
        let claims = try JSONSerialization.jsonObject(with: Data(whoami.stdout.utf8)) as? [String: Any]
        #expect(claims?["email"] as? String == "alice@example.com")
        let aliceSub = try #require(claims?["sub"] as? String)

        let human = try await CLIProcess.run(["whoami"], environment: env)
        #expect(human.status == 0 && human.stdout.contains(aliceSub) && human.stdout.contains(issuer))

        let token = try await CLIProcess.run(["token"], environment: env)
        try #require(token.status == 0, "\(token)")
        let accessToken = token.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(accessToken.split(separator: ".").count == 3, "a compact JWS")
        #expect(!accessToken.contains("\n"))

        let refreshed = try await CLIProcess.run(["token", "--refresh", "--json"], environment: env)
        try #require(refreshed.status == 0, "\(refreshed)")
        let refreshedJSON = try JSONSerialization.jsonObject(with: Data(refreshed.stdout.utf8)) as? [String: Any]
        let newToken = try #require(refreshedJSON?["access_token"] as? String)
        #expect(newToken != accessToken)

        let curl = try await CLIProcess.run(["curl", "\(issuer)/userinfo", "-i"], environment: env)
        try #require(curl.status == 0, "\(curl)")
        #expect(curl.stdout.hasPrefix("HTTP/1.1 200"))
        #expect(curl.stdout.contains("\"sub\"") && curl.stdout.contains(aliceSub))

        let missing = try await CLIProcess.run(["curl", "\(issuer)/no-such-endpoint"], environment: env)
        #expect(missing.status == 22, "\(missing)")
        #expect(missing.stderrLines.count == 1 && missing.stderr.hasPrefix("error: HTTP 404"))

        // The token only goes to the issuer's origin unless another one is allowed.
        let foreign = try await CLIProcess.run(["curl", "http://127.0.0.1:9/x"], environment: env)
        #expect(foreign.status == 1 && foreign.stderrLines.count == 1, "\(foreign)")
        #expect(foreign.stderr.contains("--allow-origin"))

        // Nothing secret sits in the config directory in clear text.
        for file in try FileManager.default.subpathsOfDirectory(atPath: config) {
            let contents = FileManager.default.contents(atPath: "\(config)/\(file)") ?? Data()
            #expect(!String(decoding: contents, as: UTF8.self).contains(newToken), "\(file) holds the token")
        }
        let attributes = try FileManager.default.attributesOfItem(atPath: config)
        #expect((attributes[.posixPermissions] as? Int) == 0o700)

        // A second account, then switch back.
        let bobBrowser = try TestBrowser.install(in: temp.url, username: "bob", password: bob)
        let second = try await CLIProcess.run(["login"], environment: env.merging(bobBrowser) { $1 })
        try #require(second.status == 0, "\(second)")
        var accounts = try await accountList(env)
        #expect(accounts.map(\.email) == ["bob@example.com", "alice@example.com"])
        #expect(accounts.first?.current == true)

        let switched = try await CLIProcess.run(["switch", "alice@example.com"], environment: env)
        #expect(switched.status == 0, "\(switched)")
        accounts = try await accountList(env)
        #expect(accounts.first?.email == "alice@example.com" && accounts.first?.current == true)

        let logout = try await CLIProcess.run(["logout", "--revoke"], environment: env)
        #expect(logout.status == 0, "\(logout)")
        accounts = try await accountList(env)
        #expect(accounts.map(\.email) == ["bob@example.com"])

        let logoutAll = try await CLIProcess.run(["logout", "--all", "--revoke"], environment: env)
        #expect(logoutAll.status == 0, "\(logoutAll)")
        let after = try await CLIProcess.run(["token"], environment: env)
        #expect(after.status != 0)
        #expect(after.stdout.isEmpty)
        #expect(after.stderrLines.count == 1 && after.stderr.hasPrefix("error: "), "\(after)")
    }

    struct Listed: Decodable {
        var id: String
        var email: String?
        var current: Bool
    }

    private func accountList(_ env: [String: String]) async throws -> [Listed] {
        let result = try await CLIProcess.run(["accounts", "--json"], environment: env)
        try #require(result.status == 0, "\(result)")
        return try JSONDecoder().decode([Listed].self, from: Data(result.stdout.utf8))
    }
}

import Foundation
import SesameTesting
import Testing

/// Single sign-on across apps in one config directory (docs/native-sso.md), and app-level
/// tokens with the directory's key, as the real binary against `sesame serve`.
@Suite("sesame login --sso, accounts --sso, logout --everywhere, token --app")
struct SSOCommandTests {
    @Test("app A signs in and shares; app B signs in through it with no browser and no password; logout --everywhere ends B; --as selects B")
    func siblingApps() async throws {
        let temp = try TempDirectory("sso")
        defer { temp.remove() }
        let data = temp.path("data")
        for app in ["app-a", "app-b"] {
            let add = try await CLIProcess.run([
                "client", "add", app, "--redirect-uri", "http://127.0.0.1/callback", "--first-party", "--app-group", "acme",
                "--data-dir", data,
            ])
            try #require(add.status == 0 && add.stdout.contains("app group acme"), "\(add)")
        }
        let badGroup = try await CLIProcess.run(["client", "add", "x", "--app-group", "Not Valid", "--data-dir", data])
        #expect(badGroup.status != 0 && badGroup.stderr.contains("app_group"), "\(badGroup)")
        let password = "alice-\(UUID().uuidString)"
        let addUser = try await CLIProcess.run(
            ["user", "add", "alice", "--email", "alice@example.com", "--password-stdin", "--data-dir", data], stdin: password + "\n")
        try #require(addUser.status == 0, "\(addUser)")
        let server = try CLIProcess.Started(["serve", "--port", "0", "--data-dir", data, "--no-challenges"])
        try await server.whileRunning {
            let issuer = String(try await server.firstLine(startingWith: "Issuer: ").dropFirst("Issuer: ".count))
            let env = ["SESAME_CONFIG_DIR": temp.path("config")]
            let none = try await CLIProcess.run(["accounts", "--sso"], environment: env)
            #expect(none.stdout.contains("No shared accounts"), "\(none)")
            let loginA = try await CLIProcess.run(
                ["login", "--password", "--sso", "--issuer", issuer, "--client-id", "app-a"], environment: env,
                stdin: "alice\n\(password)\n")
            try #require(loginA.status == 0, "\(loginA)")
            let shared = try await CLIProcess.run(["accounts", "--sso"], environment: env)
            #expect(shared.stdout.contains("alice@example.com") && shared.stdout.contains("shared by app-a"), "\(shared)")

            // No stdin: a password prompt or a browser would fail the command.
            let loginB = try await CLIProcess.run(["login", "--client-id", "app-b", "--sso", "--no-browser", "--timeout", "5"], environment: env)
            try #require(loginB.status == 0, "\(loginB)")
            #expect(loginB.stderr.contains("through the session app-a shared"), "\(loginB)")
            let tokenB = try await CLIProcess.run(["token", "--as", "app-b", "--refresh", "--json"], environment: env)
            try #require(tokenB.status == 0, "\(tokenB)")
            let tokenA = try await CLIProcess.run(["token", "--refresh"], environment: env)
            #expect(tokenA.status == 0, "app A keeps its own session: \(tokenA)")

            let everywhere = try await CLIProcess.run(["logout", "--everywhere"], environment: env)
            #expect(everywhere.status == 0 && everywhere.stdout.contains("everywhere"), "\(everywhere)")
            let after = try await CLIProcess.run(["token", "--as", "app-b", "--refresh"], environment: env)
            #expect(after.status != 0 && after.stderr.contains("every app on this device"), "\(after)")
            let gone = try await CLIProcess.run(["accounts", "--as", "app-b"], environment: env)
            #expect(gone.stdout.contains("No accounts"), "B forgot the account: \(gone)")
            #expect(try await CLIProcess.run(["accounts", "--sso"], environment: env).stdout.contains("No shared accounts"))
        }
        #expect(try await server.terminate() == 0)
    }

    @Test("client-key prints a public key set; client add --jwks-file registers it; token --app gets an app token with private_key_jwt, and a wrong secret fails at once")
    func appTokens() async throws {
        let temp = try TempDirectory("app-token")
        defer { temp.remove() }
        let data = temp.path("data")
        let server = try CLIProcess.Started(["serve", "--port", "0", "--data-dir", data])
        try await server.whileRunning {
            let issuer = String(try await server.firstLine(startingWith: "Issuer: ").dropFirst("Issuer: ".count))
            let env = ["SESAME_CONFIG_DIR": temp.path("config")]
            let key = try await CLIProcess.run(["client-key", "--issuer", issuer, "--client-id", "backend"], environment: env)
            try #require(key.status == 0 && key.stdout.contains("\"kty\":\"EC\"") && !key.stdout.contains("\"d\""), "\(key)")
            let jwks = temp.url.appendingPathComponent("keys.json")
            try Data(key.stdout.utf8).write(to: jwks)
            let add = try await CLIProcess.run([
                "client", "add", "backend", "--grant", "client_credentials", "--scope", "catalog.read", "--jwks-file", jwks.path,
                "--data-dir", data,
            ])
            try #require(add.status == 0 && add.stdout.contains("private_key_jwt"), "\(add)")
            let token = try await CLIProcess.run(
                ["token", "--app", "--private-key-jwt", "--issuer", issuer, "--client-id", "backend"], environment: env)
            try #require(token.status == 0, "\(token)")
            #expect(token.stdout.split(separator: ".").count == 3)
            let secretFile = temp.url.appendingPathComponent("secret")
            try Data(String(repeating: "x", count: 40).utf8).write(to: secretFile)
            let wrong = try await CLIProcess.run(
                ["token", "--app", "--client-secret-file", secretFile.path, "--issuer", issuer, "--client-id", "backend"],
                environment: env)
            #expect(wrong.status != 0 && wrong.stderr.contains("invalid_client"), "\(wrong)")
            let both = try await CLIProcess.run(["token", "--app"], environment: env)
            #expect(both.status != 0 && both.stderr.contains("--client-secret-file FILE or --private-key-jwt"), "\(both)")
        }
        #expect(try await server.terminate() == 0)
    }
}

import Foundation
import SesameTesting
import Testing

/// `sesame passkey …` and `sesame login --passkey` as the real binary against `sesame serve`
/// (docs/passkeys.md): the software passkey in the config directory, its passkey PIN typed into
/// stdin.
@Suite("sesame passkey")
struct PasskeyCommandTests {
    @Test("passkey add sets the passkey PIN and registers; list marks this machine's; login --passkey signs in with no password; a wrong PIN is refused; remove")
    func passkeyLifecycle() async throws {
        let temp = try TempDirectory("passkey")
        defer { temp.remove() }
        let data = temp.path("data")
        let addClient = try await CLIProcess.run([
            "client", "add", "cli-passkey", "--redirect-uri", "http://127.0.0.1/callback", "--first-party", "--data-dir", data,
        ])
        try #require(addClient.status == 0, "\(addClient)")
        let password = "alice-\(UUID().uuidString)"
        let addUser = try await CLIProcess.run(
            ["user", "add", "alice", "--email", "alice@example.com", "--password-stdin", "--data-dir", data], stdin: password + "\n")
        try #require(addUser.status == 0, "\(addUser)")
        let server = try CLIProcess.Started(["serve", "--port", "0", "--data-dir", data])
        try await server.whileRunning {
            let issuer = String(try await server.firstLine(startingWith: "Issuer: ").dropFirst("Issuer: ".count))
            let config = temp.path("config")
            let env = ["SESAME_CONFIG_DIR": config]
            let login = try await CLIProcess.run(
                ["login", "--password", "--issuer", issuer, "--client-id", "cli-passkey", "--config-dir", config],
                stdin: "alice\n\(password)\n")
            try #require(login.status == 0, "\(login)")

            let short = try await CLIProcess.run(["passkey", "add"], environment: env, stdin: "123\n")
            #expect(short.status == 1 && short.stderr.contains("shorter than 4"), "\(short)")
            let added = try await CLIProcess.run(["passkey", "add", "--name", "Build box"], environment: env, stdin: "4711\n")
            try #require(added.status == 0, "\(added)")
            #expect(added.stdout.contains("Passkey \"Build box\" registered for alice@example.com"), "\(added)")
            let list = try await CLIProcess.run(["passkey", "list", "--json"], environment: env)
            let rows = try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]]
            let row = try #require(rows?.first, "\(list)")
            #expect(row["name"] as? String == "Build box" && row["key_kind"] as? String == "swk")
            #expect(row["on_this_machine"] as? Bool == true)
            let id = try #require(row["id"] as? String)

            let out = try await CLIProcess.run(["logout"], environment: env)
            try #require(out.status == 0, "\(out)")
            // The key is sealed under the PIN: a wrong PIN opens another key, which the server
            // refuses and counts (nothing on this machine can tell a right PIN from a wrong one).
            let wrong = try await CLIProcess.run(["login", "--passkey"], environment: env, stdin: "0000\n")
            #expect(wrong.status != 0 && wrong.stderr.contains("wrong PIN") && wrong.stderr.contains("4 attempts left"), "\(wrong)")
            // A copy of the config directory, without the PIN, gets nowhere: no UV, no signature.
            let copy = temp.path("copied-config")
            try FileManager.default.copyItem(atPath: config, toPath: copy)
            let stolen = try await CLIProcess.run(["login", "--passkey"], environment: ["SESAME_CONFIG_DIR": copy], stdin: "")
            #expect(stolen.status != 0 && !stolen.stdout.contains("Signed in as"), "\(stolen)")
            let viaPasskey = try await CLIProcess.run(["login", "--passkey"], environment: env, stdin: "4711\n")
            #expect(viaPasskey.status == 0 && viaPasskey.stdout.contains("Signed in as"), "\(viaPasskey)")
            let token = try await CLIProcess.run(["token"], environment: env)
            var payload = String(token.stdout.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ".")[1])
                .replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
            while payload.count % 4 != 0 { payload += "=" }
            let claims = try JSONSerialization.jsonObject(with: try #require(Data(base64Encoded: payload))) as? [String: Any]
            #expect(claims?["amr"] as? [String] == ["swk", "user", "pin", "mfa"], "\(String(describing: claims))")
            #expect(claims?["acr"] as? String == "urn:sesame:acr:mfa")

            // The passkey is not the account's only way in (it has a password): it can go.
            let removed = try await CLIProcess.run(["passkey", "remove", "--", id], environment: env)
            #expect(removed.status == 0 && removed.stdout.contains("removed"), "\(removed)")
            let none = try await CLIProcess.run(["passkey", "list"], environment: env)
            #expect(none.stdout.contains("No passkeys"), "\(none)")
        }
        #expect(try await server.terminate() == 0)
    }
}

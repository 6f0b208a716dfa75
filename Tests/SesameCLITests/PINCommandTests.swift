import Foundation
import SesameTesting
import Testing

/// `sesame pin …` and `sesame token` on a PIN-protected profile, as the real binary against
/// `sesame serve` (docs/pin-devices.md), with PINs typed into stdin.
@Suite("sesame pin")
struct PINCommandTests {
    @Test("client add checks the PIN options by the admin API's bounds, naming the option; nothing is registered")
    func pinOptionBounds() async throws {
        let temp = try TempDirectory("pin-bounds")
        defer { temp.remove() }
        let blacklist = temp.url.appendingPathComponent("blacklist.txt")
        try Data("1234567890123\n".utf8).write(to: blacklist)
        for (options, expected) in [
            (["--pin-length", "3"], "--pin-length is between 4 and 12"),
            (["--pin-max-attempts", "11"], "--pin-max-attempts is between 1 and 10"),
            (["--pin-max-repeated", "13"], "--pin-max-repeated is between 1 and 12"),
            (["--pin-blacklist", blacklist.path], "--pin-blacklist holds PINs of 1 to 12 digits only"),
        ] {
            let run = try await CLIProcess.run(
                ["client", "add", "pins", "--redirect-uri", "http://127.0.0.1/callback", "--first-party"] + options
                    + ["--data-dir", temp.path("data")])
            #expect(run.status != 0 && run.stderr.contains(expected), "\(options): \(run.stderr)")
        }
        let list = try await CLIProcess.run(["client", "list", "--data-dir", temp.path("data")])
        #expect(!list.stdout.contains("pins "), "a refused client is not registered: \(list.stdout)")
    }

    @Test("client add sets the PIN policy; register, list, token asks for the PIN, a wrong PIN counts down, remove --unlock revokes at the server")
    func pinLifecycle() async throws {
        let temp = try TempDirectory("pin")
        defer { temp.remove() }
        let data = temp.path("data")
        let blacklist = temp.url.appendingPathComponent("blacklist.txt")
        try Data("246813\n135790\n".utf8).write(to: blacklist)
        let addClient = try await CLIProcess.run([
            "client", "add", "cli-pin", "--redirect-uri", "http://127.0.0.1/callback", "--first-party", "--pin-length", "6",
            "--pin-blacklist", blacklist.path, "--data-dir", data,
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
                ["login", "--password", "--issuer", issuer, "--client-id", "cli-pin", "--config-dir", config],
                stdin: "alice\n\(password)\n")
            try #require(login.status == 0, "\(login)")

            let short = try await CLIProcess.run(["pin", "register"], environment: env, stdin: "24681\n")
            #expect(short.status == 1 && short.stderr.contains("at least 6 digits"), "\(short)")
            let listed = try await CLIProcess.run(["pin", "register"], environment: env, stdin: "246813\n")
            #expect(listed.status == 1 && listed.stderr.contains("too common"), "\(listed)")
            let registered = try await CLIProcess.run(["pin", "register"], environment: env, stdin: "975310\n")
            try #require(registered.status == 0, "\(registered)")
            #expect(registered.stdout.contains("PIN registered for alice@example.com"))
            let list = try await CLIProcess.run(["pin", "list"], environment: env)
            #expect(list.stdout.contains("alice@example.com"), "\(list)")

            // No session on disk any more: `sesame token` asks for the PIN.
            let token = try await CLIProcess.run(["token"], environment: env, stdin: "975310\n")
            try #require(token.status == 0, "\(token)")
            #expect(token.stdout.split(separator: ".").count == 3, "a JWT: \(token.stdout)")
            let wrong = try await CLIProcess.run(["pin", "unlock"], environment: env, stdin: "111222\n")
            #expect(wrong.status == 1 && wrong.stderr.contains("wrong PIN; 2 attempts left"), "\(wrong)")

            let removed = try await CLIProcess.run(["pin", "remove", "--unlock"], environment: env, stdin: "975310\n")
            #expect(removed.status == 0 && removed.stdout.contains("revoked at the server"), "\(removed)")
            let none = try await CLIProcess.run(["pin", "list"], environment: env)
            #expect(none.stdout.contains("No PIN profiles"), "\(none)")
            // The server writes its audit records within a second.
            var audit = try await CLIProcess.run(["audit", "--event", "pin.", "--data-dir", data])
            for _ in 0..<20 where !audit.stdout.contains("pin.removed") {
                try await Task.sleep(for: .milliseconds(100))
                audit = try await CLIProcess.run(["audit", "--event", "pin.", "--data-dir", data])
            }
            #expect(audit.stdout.contains("pin.registered") && audit.stdout.contains("pin.failed"), "\(audit)")
            #expect(audit.stdout.contains("pin.removed  (removed)"), "\(audit)")
        }
        #expect(try await server.terminate() == 0)
    }
}

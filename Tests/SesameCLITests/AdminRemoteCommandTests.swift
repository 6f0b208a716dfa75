import Foundation
import Testing

/// `sesame admin` against a running `sesame serve` (issue #47): an operator signs in with a
/// password and an emailed code as the server's `sesame-admin-cli` client, then searches,
/// disables and shows a user, edits a client, reads the audit log and signs out; every refusal
/// is one line with what to do.
@Suite("sesame admin against a running server")
struct AdminRemoteCommandTests {
    @Test("login with a second factor, users search|disable|show, clients edit|show, audit, logout")
    func operatorSession() async throws {
        let temp = try TempDirectory("admin-remote")
        defer { temp.remove() }
        let data = temp.path("data")
        let config = temp.path("config")
        let password = "olga-\(UUID().uuidString)"
        for (name, extra) in [("olga", [String]()), ("mallory", [])] {
            let add = try await CLIProcess.run(
                ["user", "add", name, "--email", "\(name)@example.com", "--password-stdin", "--data-dir", data] + extra,
                stdin: password + "\n")
            try #require(add.status == 0, "\(add)")
        }
        try #require(try await CLIProcess.run(["user", "role", "olga", "admin", "--data-dir", data]).status == 0)
        let client = try await CLIProcess.run(["client", "add", "shop", "--redirect-uri", "https://shop.example.com/cb", "--data-dir", data])
        try #require(client.status == 0, "\(client)")

        let notSignedIn = try await CLIProcess.run(["admin", "users", "search", "a", "--config-dir", config])
        #expect(notSignedIn.status == 2 && notSignedIn.stderr.contains("sesame admin login"), "\(notSignedIn)")

        let server = try CLIProcess.Started(["serve", "--port", "0", "--data-dir", data])
        try await server.whileRunning {
            let issuer = String(try await server.firstLine(startingWith: "Issuer: ").dropFirst("Issuer: ".count))
            let login = try InteractiveCLI(
                ["admin", "login", issuer, "--password", "--username", "olga", "--config-dir", config])
            try await login.waitForPrompt("Password for olga")
            try login.type(password)
            try await login.waitForPrompt("Code: ")
            let outbox = try await CLIProcess.run(
                ["outbox", "--to", "olga@example.com", "--purpose", "mfa_code", "--json", "--data-dir", data])
            let entries = try JSONSerialization.jsonObject(with: Data(outbox.stdout.utf8)) as? [[String: Any]] ?? []
            let body = try #require(entries.last?["body"] as? String, "\(outbox)")
            try login.type(try #require(body.split(whereSeparator: { !$0.isNumber }).map(String.init).first { $0.count == 6 }))
            let signedIn = try await login.finish()
            #expect(signedIn.status == 0, "\(signedIn)")
            #expect(signedIn.stderr.contains("accepts this sign-in"), "\(signedIn)")

            let admin = { (arguments: [String]) in try await CLIProcess.run(["admin"] + arguments + ["--config-dir", config]) }
            let search = try await admin(["users", "search", "MALL", "--json"])
            #expect(search.status == 0 && search.stdout.contains("mallory@example.com"), "\(search)")
            let disable = try await admin(["users", "disable", "mallory"])
            #expect(disable.status == 0 && disable.stdout.contains("Disabled mallory"), "\(disable)")
            let show = try await admin(["users", "show", "mallory@example.com", "--json"])
            let detail = try JSONSerialization.jsonObject(with: Data(show.stdout.utf8)) as? [String: Any]
            #expect((detail?["user"] as? [String: Any])?["disabled_at"] != nil, "\(show)")
            let missing = try await admin(["users", "disable", "nobody"])
            #expect(missing.status == 1 && missing.stderrLines.count == 1 && missing.stderr.contains("no user is nobody"), "\(missing)")

            let create = try await admin(["users", "create", "newbie", "--email", "newbie@example.com"])
            #expect(create.status == 0 && create.stdout.contains("Created newbie"), "\(create)")
            let unconfirmed = try await admin(["users", "delete", "newbie"])
            #expect(unconfirmed.status == 64 && unconfirmed.stderr.contains("--yes"), "\(unconfirmed)")
            let deleted = try await admin(["users", "delete", "newbie", "--yes"])
            #expect(deleted.status == 0 && deleted.stdout.contains("Deleted newbie"), "\(deleted)")

            let edit = try await admin(["clients", "edit", "shop", "--add-redirect-uri", "https://shop.example.com/added"])
            #expect(edit.status == 0 && edit.stdout.contains("https://shop.example.com/added"), "\(edit)")
            let invalid = try await admin(["clients", "edit", "shop", "--add-redirect-uri", "https://shop.example.com/#fragment"])
            #expect(invalid.status == 1 && invalid.stderr.contains("redirect"), "\(invalid)")
            let builtIn = try await admin(["clients", "edit", "sesame-admin-cli", "--name", "Mine"])
            #expect(builtIn.status == 1 && builtIn.stderr.contains("own registration"), "\(builtIn)")

            // The audit log is written in batches: ask until the change is in.
            var audit = try await admin(["audit", "--user", "mallory", "--since", "1h"])
            for _ in 0..<50 where !audit.stdout.contains("admin.user_disabled") {
                try await Task.sleep(for: .milliseconds(100))
                audit = try await admin(["audit", "--user", "mallory", "--since", "1h"])
            }
            #expect(audit.status == 0 && audit.stdout.contains("admin.user_disabled") && audit.stdout.contains("actor="), "\(audit)")
            #expect(!audit.stdout.contains(password))

            let logout = try await admin(["logout"])
            #expect(logout.status == 0, "\(logout)")
            let after = try await admin(["users", "search", "a"])
            #expect(after.status == 2, "\(after)")
        }
        _ = try await server.terminate()
    }
}

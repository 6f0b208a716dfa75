import Foundation
import Testing

/// `sesame client|user|keys` against a data directory.
@Suite("sesame client/user/keys")
struct AdminCommandTests {
    @Test("clients are added, listed and removed; a confidential secret is shown once")
    func clients() async throws {
        let temp = try TempDirectory("clients")
        defer { temp.remove() }
        let data = temp.path("data")
        let publicClient = try await CLIProcess.run([
            "client", "add", "app", "--redirect-uri", "http://127.0.0.1/callback",
            "--scope", "openid profile", "--data-dir", data,
        ])
        try #require(publicClient.status == 0, "\(publicClient)")
        #expect(!publicClient.stdout.contains("secret"))

        let confidential = try await CLIProcess.run([
            "client", "add", "api", "--confidential", "--grant", "client_credentials",
            "--data-dir", data, "--json",
        ])
        try #require(confidential.status == 0, "\(confidential)")
        let created = try JSONSerialization.jsonObject(with: Data(confidential.stdout.utf8)) as? [String: Any]
        let secret = try #require(created?["client_secret"] as? String)
        #expect(secret.count >= 20)

        let list = try await CLIProcess.run(["client", "list", "--json", "--data-dir", data])
        try #require(list.status == 0, "\(list)")
        let clients = try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]] ?? []
        #expect(clients.compactMap { $0["client_id"] as? String } == ["api", "app"])
        #expect(clients.first { $0["client_id"] as? String == "app" }?["scopes"] as? [String] == ["openid", "profile"])
        #expect(!list.stdout.contains(secret), "the secret is shown only once")

        let removed = try await CLIProcess.run(["client", "remove", "app", "--data-dir", data])
        #expect(removed.status == 0, "\(removed)")
        let again = try await CLIProcess.run(["client", "remove", "app", "--data-dir", data])
        #expect(again.status == 1 && again.stderrLines.count == 1, "\(again)")
        let human = try await CLIProcess.run(["client", "list", "--data-dir", data])
        #expect(human.stdout.contains("api") && !human.stdout.contains("app "))
    }

    @Test("user role grants, replaces and takes away an operator role; a wrong role or user is refused")
    func roles() async throws {
        let temp = try TempDirectory("roles")
        defer { temp.remove() }
        let data = temp.path("data")
        let add = try await CLIProcess.run(["user", "add", "alice", "--email", "alice@example.com", "--password", "a long enough password", "--data-dir", data])
        try #require(add.status == 0, "\(add)")
        let none = try await CLIProcess.run(["user", "role", "--data-dir", data])
        #expect(none.status == 0 && none.stdout.contains("sesame user role <username> admin"), "\(none)")
        let grant = try await CLIProcess.run(["user", "role", "alice", "helpdesk", "--data-dir", data])
        #expect(grant.status == 0 && grant.stdout.contains("alice is now helpdesk"), "\(grant)")
        _ = try await CLIProcess.run(["user", "role", "alice@example.com", "admin", "--data-dir", data])
        let listed = try await CLIProcess.run(["user", "role", "--json", "--data-dir", data])
        let operators = try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]] ?? []
        #expect(operators.count == 1 && operators.first?["role"] as? String == "admin" && operators.first?["username"] as? String == "alice")
        let wrongRole = try await CLIProcess.run(["user", "role", "alice", "root", "--data-dir", data])
        #expect(wrongRole.status != 0 && wrongRole.stderr.contains("admin, helpdesk, auditor or none"), "\(wrongRole)")
        let wrongUser = try await CLIProcess.run(["user", "role", "bob", "admin", "--data-dir", data])
        #expect(wrongUser.status == 1, "\(wrongUser)")
        let revoke = try await CLIProcess.run(["user", "role", "alice", "none", "--data-dir", data])
        #expect(revoke.status == 0 && revoke.stdout.contains("no operator role"), "\(revoke)")
    }

    @Test("client add --first-party and --mfa-policy are stored and listed; an unknown policy is refused")
    func clientOptions() async throws {
        let temp = try TempDirectory("client-options")
        defer { temp.remove() }
        let data = temp.path("data")
        let own = try await CLIProcess.run([
            "client", "add", "own", "--redirect-uri", "http://127.0.0.1/callback", "--first-party",
            "--mfa-policy", "always", "--data-dir", data,
        ])
        try #require(own.status == 0, "\(own)")
        #expect(own.stdout.contains("first-party"), "\(own.stdout)")
        let relaxed = try await CLIProcess.run([
            "client", "add", "relaxed", "--redirect-uri", "http://127.0.0.1/callback", "--mfa-policy", "Never",
            "--data-dir", data, "--json",
        ])
        try #require(relaxed.status == 0, "\(relaxed)")
        let created = try JSONSerialization.jsonObject(with: Data(relaxed.stdout.utf8)) as? [String: Any]
        #expect(created?["first_party"] as? Bool == false)
        #expect(created?["mfa_policy"] as? String == "never")
        let plain = try await CLIProcess.run([
            "client", "add", "rp", "--redirect-uri", "https://rp.example/cb", "--mfa-policy", "when-enrolled",
            "--data-dir", data,
        ])
        try #require(plain.status == 0, "\(plain)")

        let list = try await CLIProcess.run(["client", "list", "--json", "--data-dir", data])
        try #require(list.status == 0, "\(list)")
        let clients = try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]] ?? []
        let byID = Dictionary(uniqueKeysWithValues: clients.compactMap { client in
            (client["client_id"] as? String).map { ($0, client) }
        })
        #expect(byID["own"]?["first_party"] as? Bool == true)
        #expect(byID["own"]?["mfa_policy"] as? String == "always")
        #expect(byID["relaxed"]?["mfa_policy"] as? String == "never")
        #expect(byID["rp"]?["first_party"] as? Bool == false)
        #expect(byID["rp"]?["mfa_policy"] as? String == "when_enrolled")
        let human = try await CLIProcess.run(["client", "list", "--data-dir", data])
        let ownLine = human.stdout.split(separator: "\n").first { $0.hasPrefix("own ") }
        #expect(ownLine?.contains("first-party") == true, "\(human.stdout)")

        let unknown = try await CLIProcess.run([
            "client", "add", "odd", "--redirect-uri", "http://127.0.0.1/callback", "--mfa-policy", "sometimes",
            "--data-dir", data,
        ])
        #expect(unknown.status == 1 && unknown.stderrLines.count == 1, "\(unknown)")
        #expect(unknown.stderr.contains("when-enrolled"), "\(unknown.stderr)")
    }

    @Test("users are added, listed and removed; duplicates are refused")
    func users() async throws {
        let temp = try TempDirectory("users")
        defer { temp.remove() }
        let data = temp.path("data")
        let password = "pw-\(UUID().uuidString)"
        let add = try await CLIProcess.run(
            ["user", "add", "Dana", "--email", "dana@example.com", "--name", "Dana Scully",
             "--password-stdin", "--data-dir", data, "--json"],
            stdin: password + "\n")
        try #require(add.status == 0, "\(add)")
        let user = try JSONSerialization.jsonObject(with: Data(add.stdout.utf8)) as? [String: Any]
        #expect(user?["username"] as? String == "dana")
        #expect(user?["name"] as? String == "Dana Scully")
        #expect(!add.stdout.contains(password))

        let duplicate = try await CLIProcess.run(
            ["user", "add", "dana", "--email", "other@example.com", "--password", "x-long-password", "--data-dir", data])
        #expect(duplicate.status == 1 && duplicate.stderrLines.count == 1, "\(duplicate)")

        let list = try await CLIProcess.run(["user", "list", "--json", "--data-dir", data])
        let users = try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]] ?? []
        #expect(users.compactMap { $0["email"] as? String } == ["dana@example.com"])
        #expect(!list.stdout.contains("scrypt"), "no password hash in the output")

        let remove = try await CLIProcess.run(["user", "remove", "dana@example.com", "--data-dir", data])
        #expect(remove.status == 0, "\(remove)")
        let empty = try await CLIProcess.run(["user", "list", "--json", "--data-dir", data])
        #expect((try JSONSerialization.jsonObject(with: Data(empty.stdout.utf8)) as? [Any])?.isEmpty == true)
    }

    @Test("keys rotate adds signing keys and keeps the previous ones published, retired")
    func keys() async throws {
        let temp = try TempDirectory("keys")
        defer { temp.remove() }
        let data = temp.path("data")
        #expect(try await keyList(data).isEmpty, "listing does not create keys")
        let first = try await CLIProcess.run(["keys", "rotate", "--data-dir", data])
        try #require(first.status == 0, "\(first)")
        let before = try await keyList(data)
        try #require(!before.isEmpty, "rotating an empty key ring creates keys")
        #expect(before.allSatisfy { $0.status == "active" })
        let rotate = try await CLIProcess.run(["keys", "rotate", "--data-dir", data])
        #expect(rotate.status == 0, "\(rotate)")
        #expect(!rotate.stdout.contains("PRIVATE KEY"))
        let after = try await keyList(data)
        let old = Set(before.map(\.kid))
        #expect(old.isSubset(of: Set(after.map(\.kid))), "old keys stay in the JWKS")
        #expect(after.filter { old.contains($0.kid) }.allSatisfy { $0.status == "retired" })
        let fresh = after.filter { !old.contains($0.kid) }
        #expect(!fresh.isEmpty && fresh.allSatisfy { $0.status == "active" })
    }

    struct Key: Decodable {
        var kid: String
        var status: String
    }

    private func keyList(_ data: String) async throws -> [Key] {
        let list = try await CLIProcess.run(["keys", "list", "--json", "--data-dir", data])
        try #require(list.status == 0, "\(list)")
        return try JSONDecoder().decode([Key].self, from: Data(list.stdout.utf8))
    }
}

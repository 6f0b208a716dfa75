import Foundation
import SesameTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `sesame api add|list|remove`, `sesame client add --api`, `sesame client apis`, the seed
/// file's `apis`, and `sesame example-api --resource` (RFC 8707, issue #49), as the real binary:
/// a client's token for the API it names is accepted by the example API registered as that API,
/// and a token for the issuer is refused by it.
@Suite("sesame api, client --api, example-api --resource")
struct APICommandTests {
    @Test("api add refuses bad identifiers and scopes, clients name registered APIs only, the example API accepts its own tokens only")
    func apis() async throws {
        let temp = try TempDirectory("api")
        defer { temp.remove() }
        let data = temp.path("data")
        for (arguments, says) in [
            (["https://shop.example.com#x"], "fragment"), (["http://shop.example.com"], "https"),
            (["https://shop.example.com", "--scope", "openid"], "OpenID Connect scope"),
            (["https://shop.example.com", "--scope", "bad scope"], "scope token"),
        ] {
            let refused = try await CLIProcess.run(["api", "add"] + arguments + ["--data-dir", data])
            #expect(refused.status != 0 && refused.stderr.contains(says), "\(arguments): \(refused)")
        }
        let resource = "http://127.0.0.1:1/shop"
        let added = try await CLIProcess.run(
            ["api", "add", resource, "--scope", "orders:read", "--scope", "admin", "--name", "Shop", "--data-dir", data])
        try #require(added.status == 0, "\(added)")
        let list = try await CLIProcess.run(["api", "list", "--json", "--data-dir", data])
        #expect(list.stdout.contains(resource) && list.stdout.contains("orders:read"), "\(list)")

        let unknown = try await CLIProcess.run([
            "client", "add", "ci", "--confidential", "--grant", "client_credentials", "--api", "https://nowhere.example.com",
            "--data-dir", data,
        ])
        #expect(unknown.status != 0 && unknown.stderr.contains("sesame api add"), "\(unknown)")
        let client = try await CLIProcess.run([
            "client", "add", "ci", "--confidential", "--grant", "client_credentials", "--api", resource, "--default-api", resource,
            "--json", "--data-dir", data,
        ])
        try #require(client.status == 0, "\(client)")
        let secret = try #require(
            (try JSONSerialization.jsonObject(with: Data(client.stdout.utf8)) as? [String: Any])?["client_secret"] as? String)
        let otherClient = try await CLIProcess.run([
            "client", "add", "other", "--confidential", "--grant", "client_credentials", "--json", "--data-dir", data,
        ])
        let otherSecret = try #require(
            (try JSONSerialization.jsonObject(with: Data(otherClient.stdout.utf8)) as? [String: Any])?["client_secret"] as? String)

        let server = try CLIProcess.Started(["serve", "--port", "0", "--data-dir", data])
        try await server.whileRunning {
            let issuer = String(try await server.firstLine(startingWith: "Issuer: ").dropFirst("Issuer: ".count))
            let api = try CLIProcess.Started(["example-api", "--issuer", issuer, "--port", "0", "--resource", resource])
            try await api.whileRunning {
                let base = String(try await api.firstLine(startingWith: "Example API: ").dropFirst("Example API: ".count))
                let forShop = try await Self.token(issuer: issuer, client: "ci", secret: secret)
                #expect(try await Self.me(base, forShop) == 200, "the default API's token")
                let forIssuer = try await Self.token(issuer: issuer, client: "other", secret: otherSecret)
                #expect(try await Self.me(base, forIssuer) == 401, "a token for no API")
            }
            _ = try await api.terminate()
        }
        #expect(try await server.terminate() == 0)

        let cleared = try await CLIProcess.run(["client", "apis", "ci", "--data-dir", data])
        #expect(cleared.status == 0 && cleared.stdout.contains("no API"), "\(cleared)")
        let badDefault = try await CLIProcess.run(
            ["client", "apis", "ci", "--api", resource, "--default-api", "https://other.example.com", "--data-dir", data])
        #expect(badDefault.status != 0 && badDefault.stderr.contains("default_resource"), "\(badDefault)")
        let removed = try await CLIProcess.run(["api", "remove", resource, "--data-dir", data])
        #expect(removed.status == 0, "\(removed)")
        let again = try await CLIProcess.run(["api", "remove", resource, "--data-dir", data])
        #expect(again.status != 0 && again.stderr.contains("sesame api list"), "\(again)")
    }

    @Test("the seed file registers APIs before the clients that name them; a client naming an unknown API stops the start")
    func seed() async throws {
        let temp = try TempDirectory("api-seed")
        defer { temp.remove() }
        let seed = temp.url.appendingPathComponent("seed.yaml")
        try Data(
            """
            apis:
              - identifier: https://shop-api.example.com
                name: Shop
                scopes: [orders:read]
            clients:
              - client_id: shop-app
                redirect_uris: [http://127.0.0.1/callback]
                resources: [https://shop-api.example.com]
                default_resource: https://shop-api.example.com
            """.utf8
        ).write(to: seed)
        let data = temp.path("data")
        let server = try CLIProcess.Started(["serve", "--config", seed.path, "--port", "0", "--data-dir", data])
        try await server.whileRunning { _ = try await server.firstLine(startingWith: "Issuer: ") }
        #expect(try await server.terminate() == 0)
        let list = try await CLIProcess.run(["api", "list", "--data-dir", data])
        #expect(list.stdout.contains("https://shop-api.example.com  Shop  scopes: orders:read"), "\(list)")
        let show = try await CLIProcess.run(["client", "show", "shop-app", "--json", "--data-dir", data])
        #expect(show.stdout.contains(#""default_resource" : "https://shop-api.example.com""#), "\(show)")

        let unknown = temp.url.appendingPathComponent("unknown.yaml")
        try Data(
            """
            clients:
              - client_id: shop-app
                redirect_uris: [http://127.0.0.1/callback]
                resources: [https://points-api.example.com]
            """.utf8
        ).write(to: unknown)
        let stopped = try await CLIProcess.run(["serve", "--config", unknown.path, "--port", "0", "--data-dir", temp.path("data3")])
        #expect(stopped.status != 0 && stopped.stderr.contains("sesame api add"), "\(stopped)")
        let bad = temp.url.appendingPathComponent("bad.yaml")
        try Data(
            """
            apis:
              - identifier: https://shop-api.example.com#x
            """.utf8
        ).write(to: bad)
        let refused = try await CLIProcess.run(["serve", "--config", bad.path, "--port", "0", "--data-dir", temp.path("data2")])
        #expect(refused.status != 0 && refused.stderr.contains("apis[0].identifier"), "\(refused)")
    }

    @Test("sesame curl, not yet configured: from the API's 401 to its authorization server, registration, the browser sign-in and the answer")
    func curlDiscovers() async throws {
        let temp = try TempDirectory("api-discovery")
        defer { temp.remove() }
        let data = temp.path("data")
        let port = try Self.freePort()
        let resource = "http://127.0.0.1:\(port)"
        try #require(try await CLIProcess.run(["api", "add", resource, "--scope", "admin", "--data-dir", data]).status == 0)
        let password = "discovery passphrase 42"
        let user = try await CLIProcess.run(
            ["user", "add", "alice", "--email", "alice@example.com", "--password-stdin", "--data-dir", data], stdin: password + "\n")
        try #require(user.status == 0, "\(user)")
        let server = try CLIProcess.Started(
            ["serve", "--port", "0", "--registration", "open", "--registration-api", resource, "--data-dir", data])
        try await server.whileRunning {
            let issuer = String(try await server.firstLine(startingWith: "Issuer: ").dropFirst("Issuer: ".count))
            let api = try CLIProcess.Started(["example-api", "--issuer", issuer, "--port", "\(port)", "--resource", resource])
            try await api.whileRunning {
                _ = try await api.firstLine(startingWith: "Example API: ")
                var environment = try TestBrowser.install(in: temp.url, username: "alice", password: password)
                environment["SESAME_CONFIG_DIR"] = temp.path("config")
                let curl = try await CLIProcess.run(["curl", resource + "/v1/me"], environment: environment)
                #expect(curl.status == 0, "\(curl)")
                #expect(curl.stdout.contains(#""client_id":"dyn-"#), "a client the CLI registered: \(curl)")
                #expect(curl.stderr.contains("registering this CLI"), "\(curl)")
                // Remembered: the next request needs no discovery and no browser.
                let again = try await CLIProcess.run(["curl", resource + "/v1/me"], environment: ["SESAME_CONFIG_DIR": temp.path("config")])
                #expect(again.status == 0 && !again.stderr.contains("registering"), "\(again)")
            }
            _ = try await api.terminate()
        }
        #expect(try await server.terminate() == 0)

        // A server that does not allow registration: the answer says how to sign in instead.
        let closed = try CLIProcess.Started(["serve", "--port", "0", "--data-dir", data])
        try await closed.whileRunning {
            let issuer = String(try await closed.firstLine(startingWith: "Issuer: ").dropFirst("Issuer: ".count))
            let api = try CLIProcess.Started(["example-api", "--issuer", issuer, "--port", "\(port)", "--resource", resource])
            try await api.whileRunning {
                _ = try await api.firstLine(startingWith: "Example API: ")
                let refused = try await CLIProcess.run(
                    ["curl", resource + "/v1/me"], environment: ["SESAME_CONFIG_DIR": temp.path("config2")])
                #expect(refused.status != 0 && refused.stderr.contains("--client-id"), "\(refused)")
            }
            _ = try await api.terminate()
        }
        _ = try await closed.terminate()
    }

    /// A loopback TCP port nothing listens on now.
    static func freePort() throws -> Int {
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        probe.arguments = ["python3", "-c", "import socket; s=socket.socket(); s.bind(('127.0.0.1', 0)); print(s.getsockname()[1])"]
        let pipe = Pipe()
        probe.standardOutput = pipe
        try probe.run()
        probe.waitUntilExit()
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return try #require(Int(text.trimmingCharacters(in: .whitespacesAndNewlines)))
    }

    static func token(issuer: String, client: String, secret: String) async throws -> String {
        var request = URLRequest(url: URL(string: issuer + "/token")!)
        request.httpMethod = "POST"
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        request.setValue(
            "Basic " + Data("\(client):\(secret)".utf8).base64EncodedString(), forHTTPHeaderField: "Authorization")
        request.httpBody = Data("grant_type=client_credentials".utf8)
        let (body, response) = try await URLSession.shared.data(for: request)
        try #require((response as? HTTPURLResponse)?.statusCode == 200, "\(String(decoding: body, as: UTF8.self))")
        return try #require((try JSONSerialization.jsonObject(with: body) as? [String: Any])?["access_token"] as? String)
    }

    static func me(_ base: String, _ token: String) async throws -> Int {
        var request = URLRequest(url: URL(string: base + "/v1/me")!)
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        let (_, response) = try await URLSession.shared.data(for: request)
        return (response as? HTTPURLResponse)?.statusCode ?? 0
    }
}

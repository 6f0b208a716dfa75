import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `sesame serve` on its own: first-start guidance, the seed file, and clean signal handling.
@Suite("sesame serve")
struct ServeCommandTests {
    @Test("on an empty data directory it prints the issuer first, then how to add a client and a user")
    func firstStart() async throws {
        let temp = try TempDirectory("first-start")
        defer { temp.remove() }
        let server = try CLIProcess.Started(["serve", "--port", "0", "--data-dir", temp.path("data")])
        let issuerLine = try await server.whileRunning {
            let issuerLine = try await server.firstLine(startingWith: "Issuer: ")
            _ = try await server.firstLine(startingWith: "Press Ctrl-C")
            // The printed issuer is the one discovery names (OIDC Discovery §4.3).
            let issuer = String(issuerLine.dropFirst("Issuer: ".count))
            let discovery = try #require(URL(string: "\(issuer)/.well-known/openid-configuration"))
            let (body, _) = try await URLSession.shared.data(from: discovery)
            let metadata = try JSONSerialization.jsonObject(with: body) as? [String: Any]
            #expect(metadata?["issuer"] as? String == issuer)
            return issuerLine
        }
        let status = try await server.terminate()
        #expect(status == 0, "\(server.stderr())")
        let lines = server.stdout().split(separator: "\n").map(String.init)
        #expect(lines.first == issuerLine)
        #expect(lines.contains { $0.contains("sesame client add ") && $0.contains("--data-dir") })
        #expect(lines.contains { $0.contains("sesame user add ") })
        #expect(issuerLine.hasPrefix("Issuer: http://127.0.0.1:"))
    }

    @Test("--config seeds clients and users at start")
    func seedFile() async throws {
        let temp = try TempDirectory("seed")
        defer { temp.remove() }
        let seed = temp.url.appendingPathComponent("seed.json")
        try Data(
            """
            {"clients": [{"client_id": "seeded-app", "redirect_uris": ["http://127.0.0.1/callback"]}],
             "users": [{"username": "erin", "email": "erin@example.com", "password": "a-long-seed-password"}]}
            """.utf8
        ).write(to: seed)
        let data = temp.path("data")
        let server = try CLIProcess.Started([
            "serve", "--port", "0", "--data-dir", data, "--config", seed.path,
        ])
        _ = try await server.whileRunning { try await server.firstLine(startingWith: "Press Ctrl-C") }
        #expect(!server.stdout().contains("No clients yet"))
        #expect(server.stdout().contains("--client-id seeded-app"))
        #expect(try await server.terminate() == 0)

        let clients = try await CLIProcess.run(["client", "list", "--data-dir", data])
        #expect(clients.stdout.contains("seeded-app"), "\(clients)")
        let users = try await CLIProcess.run(["user", "list", "--data-dir", data])
        #expect(users.stdout.contains("erin@example.com"), "\(users)")
    }

    @Test("--config reads a .yaml seed file as YAML")
    func yamlSeedFile() async throws {
        let temp = try TempDirectory("seed-yaml")
        defer { temp.remove() }
        let seed = temp.url.appendingPathComponent("seed.yaml")
        try Data(
            """
            clients:
              - client_id: yaml-app
                redirect_uris: [http://127.0.0.1/callback]
            users:
              - username: yann
                email: yann@example.com
                password: 0123456789
            """.utf8
        ).write(to: seed)
        let server = try CLIProcess.Started([
            "serve", "--port", "0", "--data-dir", temp.path("data"), "--config", seed.path,
        ])
        _ = try await server.whileRunning { try await server.firstLine(startingWith: "Press Ctrl-C") }
        #expect(try await server.terminate() == 0, "\(server.stderr())")
        let stdout = server.stdout()
        #expect(!stdout.contains("No clients yet") && !stdout.contains("No users yet"), "\(stdout)")
        #expect(stdout.contains("--client-id yaml-app"), "\(stdout)")
    }

    @Test("a missing seed file is one error line")
    func missingSeed() async throws {
        let temp = try TempDirectory("noseed")
        defer { temp.remove() }
        let result = try await CLIProcess.run([
            "serve", "--port", "0", "--data-dir", temp.path("data"), "--config", temp.path("nope.json"),
        ])
        #expect(result.status == 1)
        #expect(result.stderrLines.count == 1 && result.stderr.contains("--config"), "\(result)")
    }

    @Test("--passkey-apple-app and --passkey-android-app publish the association files; a bad App ID is one error line")
    func associatedApps() async throws {
        let temp = try TempDirectory("apps")
        defer { temp.remove() }
        let fingerprint = Array(repeating: "C4", count: 32).joined(separator: ":")
        let server = try CLIProcess.Started([
            "serve", "--port", "0", "--data-dir", temp.path("data"), "--passkey-apple-app", "ABCDE12345.com.example.app",
            "--passkey-android-app", "com.example.app:" + fingerprint, "--apple-app-link", "ABCDE12345.com.example.app:/callback/ios",
        ])
        try await server.whileRunning {
            let issuerLine = try await server.firstLine(startingWith: "Issuer: ")
            let issuer = String(issuerLine.dropFirst("Issuer: ".count))
            let apple = try #require(URL(string: "\(issuer)/.well-known/apple-app-site-association"))
            let (appleBody, _) = try await URLSession.shared.data(from: apple)
            #expect(
                String(decoding: appleBody, as: UTF8.self)
                    == #"{"applinks":{"details":[{"appIDs":["ABCDE12345.com.example.app"],"components":[{"/":"/callback/ios"}]}]},"webcredentials":{"apps":["ABCDE12345.com.example.app"]}}"#)
            let android = try #require(URL(string: "\(issuer)/.well-known/assetlinks.json"))
            let (androidBody, _) = try await URLSession.shared.data(from: android)
            #expect(String(decoding: androidBody, as: UTF8.self).contains(#""package_name":"com.example.app""#))
            #expect(String(decoding: androidBody, as: UTF8.self).contains(fingerprint))
        }
        #expect(try await server.terminate() == 0)

        let refused = try await CLIProcess.run([
            "serve", "--port", "0", "--data-dir", temp.path("data"), "--passkey-apple-app", "com.example.app",
        ])
        #expect(refused.status == 1)
        #expect(refused.stderrLines.count == 1 && refused.stderr.contains("Team ID"), "\(refused)")

        let badLink = try await CLIProcess.run([
            "serve", "--port", "0", "--data-dir", temp.path("data"), "--apple-app-link", "ABCDE12345.com.example.app:callback",
        ])
        #expect(badLink.status == 1)
        #expect(badLink.stderrLines.count == 1 && badLink.stderr.contains("--apple-app-link"), "\(badLink)")
    }
}

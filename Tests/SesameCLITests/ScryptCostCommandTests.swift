import Foundation
import SesameProvider
import SesameStore
import StoreTesting
import Testing

@testable import SesameCLI

/// `sesame serve --scrypt-cost` (the operator's scrypt cost, as Keycloak's hash iterations): new
/// password and client-secret hashes record the chosen cost and verify; a cost below the default
/// is warned about at start; a cost outside 10...18 is one error line; the default stays 15.
@Suite("sesame serve --scrypt-cost")
struct ScryptCostCommandTests {
    @Test("the seed's password and client secret are hashed at the chosen cost, with a warning below 15; the default is 15")
    func chosenCost() async throws {
        #expect(try PasswordHashingOptions.parse([]).hasher().logN == 15, "the product's default")
        let temp = try TempDirectory("scrypt-cost")
        defer { temp.remove() }
        let seed = temp.url.appendingPathComponent("seed.yaml")
        try Data(
            """
            clients:
              - client_id: cost-app
                secret: a-chosen-secret-of-the-operator-kept-long-enough
                redirect_uris: [http://127.0.0.1/callback]
            users:
              - username: ada
                email: ada@example.com
                password: correct-horse-battery-cost
            """.utf8
        ).write(to: seed)
        let server = try CLIProcess.Started(
            ["serve", "--port", "0", "--data-dir", temp.path("data"), "--config", seed.path, "--scrypt-cost", "11"])
        _ = try await server.whileRunning { try await server.firstLine(startingWith: "Press Ctrl-C") }
        #expect(try await server.terminate() == 0, "\(server.stderr())")
        #expect(server.stderr().contains("below the default 15"), "\(server.stderr())")

        let store = try await SQLIdentityStore.openSQLite(
            at: URL(fileURLWithPath: temp.path("data")).appendingPathComponent("sesame.sqlite"), logger: StoreSamples.logger)
        let user = try #require(try await store.user(login: "ada"))
        let client = try #require(try await store.client(id: "cost-app"))
        try await store.close()
        let hasher = ScryptPasswordHasher(logN: 11)
        for (phc, secret) in [(user.passwordHash, "correct-horse-battery-cost"), (client.secretHash, "a-chosen-secret-of-the-operator-kept-long-enough")] {
            let stored = try #require(phc)
            #expect(stored.hasPrefix("$scrypt$ln=11,r=8,p=1$"), "\(stored)")
            #expect(hasher.verify(secret, against: stored))
            #expect(!hasher.verify(secret + "x", against: stored))
        }
    }

    @Test("a cost below 10 or above 18 is one error line naming the range")
    func outOfRange() async throws {
        let temp = try TempDirectory("scrypt-cost-bad")
        defer { temp.remove() }
        for cost in ["9", "19", "1000000000000"] {
            let result = try await CLIProcess.run(["serve", "--port", "0", "--data-dir", temp.path("data"), "--scrypt-cost", cost])
            #expect(result.status != 0, "\(cost): \(result)")
            #expect(result.stderrLines.count <= 2 && result.stderr.contains("--scrypt-cost"), "\(cost): \(result)")
        }
    }
}

extension ScryptCostCommandTests {
    @Test("sesame user add --scrypt-cost hashes offline at that cost; a bad cost creates nobody")
    func userAdd() async throws {
        let temp = try TempDirectory("scrypt-cost-user")
        defer { temp.remove() }
        let data = temp.path("data")
        let added = try await CLIProcess.run(
            ["user", "add", "bea", "--email", "bea@example.com", "--password-stdin", "--data-dir", data, "--scrypt-cost", "12"],
            stdin: "a-password-for-bea\n")
        #expect(added.status == 0, "\(added)")
        let refused = try await CLIProcess.run(
            ["user", "add", "cid", "--email", "cid@example.com", "--password-stdin", "--data-dir", data, "--scrypt-cost", "40"],
            stdin: "a-password-for-cid\n")
        #expect(refused.status != 0 && refused.stderr.contains("--scrypt-cost"), "\(refused)")

        let store = try await SQLIdentityStore.openSQLite(
            at: URL(fileURLWithPath: data).appendingPathComponent("sesame.sqlite"), logger: StoreSamples.logger)
        let bea = try await store.user(login: "bea")
        let cid = try await store.user(login: "cid")
        try await store.close()
        let stored = try #require(bea?.passwordHash)
        #expect(stored.hasPrefix("$scrypt$ln=12,r=8,p=1$"), "\(stored)")
        #expect(ScryptPasswordHasher(logN: 12).verify("a-password-for-bea", against: stored))
        #expect(cid == nil, "a refused cost creates no user")
    }
}

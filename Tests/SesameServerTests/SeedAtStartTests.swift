import Foundation
import SesameTesting
import StoreTesting
import Testing
@testable import SesameServer

/// A seed file named in the server's configuration is applied when the server starts (the
/// seed's own rules are the provider's, `SesameProviderTests/SeedYAMLTests`).
@Suite("Seed file at server start")
struct SeedAtStartTests {
    @Test("a YAML seed passed as ServerConfiguration.seedFile creates the client and the user at start")
    func appliedAtServerStart() async throws {
        let sandbox = try StoreSandbox.make()
        defer { sandbox.remove() }
        let file = sandbox.directory.appendingPathComponent("seed.yml")
        try Data(
            """
            clients:
              - client_id: yaml-app
                redirect_uris: [http://127.0.0.1/callback]
                first_party: yes
            users:
              - username: yolanda
                email: yolanda@example.com
                password: 01234567
                email_verified: true
            """.utf8
        ).write(to: file)
        try await withTestServer(configure: { $0.seedFile = file }) { server in
            let client = try #require(try await server.store.client(id: "yaml-app"))
            #expect(client.redirectURIs == ["http://127.0.0.1/callback"])
            #expect(client.firstParty)
            #expect(client.isConfidential == false)
            let user = try #require(try await server.store.user(login: "yolanda"))
            #expect(user.email == "yolanda@example.com" && user.emailVerified)
            let hash = try #require(user.passwordHash)
            #expect(server.passwordHasher.verify("01234567", against: hash))
            #expect(!server.passwordHasher.verify("0", against: hash))
        }
    }
}

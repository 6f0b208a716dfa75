import Foundation
import Testing
import StoreTesting
@testable import SesameProvider
import SesameStore

@Suite("Seeder: idempotent apply")
struct SeederTests {
    @Test("providers: seeded with known issuers filled in, applied once, a bad one refused naming its field")
    func providers() async throws {
        try await withSandboxStore { store, _ in
            let yaml = """
                providers:
                  - id: google
                    kind: google
                    audiences: [web.apps.example]
                    link_by_email: true
                  - id: acme-id
                    issuer: https://id.acme.example
                    audiences: [acme-watch]
                    jwks_uri: https://id.acme.example/jwks
                """
            let seed = try SeedConfiguration.decode(Data(yaml.utf8), source: "seed.yaml")
            let seeder = Seeder(store: store, hasher: StoreSamples.hasher)
            #expect(try await seeder.apply(seed).providersApplied == 2)
            #expect(try await seeder.apply(seed).providersApplied == 0, "applying again changes nothing")
            let federation = store
            let google = try #require(try await federation.federationProvider(id: "google"))
            #expect(google.issuer == "https://accounts.google.com" && google.linkByEmail)
            #expect(google.jwksURI == "https://www.googleapis.com/oauth2/v3/certs")
            let bad = "providers:\n  - id: x\n    issuer: http://evil.example\n    audiences: [a]\n    jwks_uri: https://evil.example/k\n"
            #expect {
                _ = try SeedConfiguration.decode(Data(bad.utf8), source: "seed.yaml")
            } throws: { error in
                "\(error)".contains("providers[0].issuer")
            }
            let unknown = "providers:\n  - id: x\n    colour: red\n"
            #expect(throws: (any Error).self) { _ = try SeedConfiguration.decode(Data(unknown.utf8), source: "seed.yaml") }
        }
    }

    @Test("apply creates clients and users, hashing secrets and passwords; applying again changes nothing")
    func idempotentApply() async throws {
        try await withSandboxStore { store, _ in
            let seed = try SeedConfiguration.decode(Data(SeedConfigurationTests.valid.utf8), source: "seed.json")
            let seeder = Seeder(store: store, hasher: StoreSamples.hasher)

            let first = try await seeder.apply(seed)
            #expect(first.clientsCreated == 2)
            #expect(first.usersCreated == 1)

            let demo = try #require(try await store.client(id: "demo"))
            let secret = try #require(seed.clients[0].secret)
            let secretHash = try #require(demo.secretHash)
            #expect(secretHash != secret && !secretHash.contains(secret))
            #expect(StoreSamples.hasher.verify(secret, against: secretHash))
            #expect(demo.tokenEndpointAuthMethod == .clientSecretBasic)
            #expect(demo.idTokenSigningAlg == "ES256")
            let native = try #require(try await store.client(id: "native"))
            #expect(native.isConfidential == false)
            #expect(native.grantTypes == [.authorizationCode, .refreshToken])

            let alice = try #require(try await store.user(login: "alice"))
            let aliceHash = try #require(alice.passwordHash)
            #expect(StoreSamples.hasher.verify("wonderland-1865", against: aliceHash))
            #expect(alice.claims.givenName == "Alice")
            #expect(alice.emailVerified)

            let second = try await seeder.apply(seed)
            #expect(second.clientsCreated == 0 && second.clientsUpdated == 0 && second.clientsUnchanged == 2)
            #expect(second.usersCreated == 0 && second.usersExisting == 1)
            #expect(try await store.client(id: "demo")?.secretHash == secretHash)
            #expect(try await store.users().count == 1)
        }
    }

    @Test("a changed client is updated; an existing user (matched by email) is left as it is")
    func updatesClientsKeepsUsers() async throws {
        try await withSandboxStore { store, _ in
            let seeder = Seeder(store: store, hasher: StoreSamples.hasher)
            var seed = try SeedConfiguration.decode(Data(SeedConfigurationTests.valid.utf8), source: "seed.json")
            _ = try await seeder.apply(seed)
            let before = try #require(try await store.user(login: "alice"))

            seed.clients[1].redirectURIs = ["com.example.app:/other"]
            seed.users[0].username = "alice2"  // same email: the same person
            seed.users[0].password = "a-different-password"
            let report = try await seeder.apply(seed)
            #expect(report.clientsUpdated == 1 && report.clientsUnchanged == 1)
            #expect(report.usersExisting == 1 && report.usersCreated == 0)
            #expect(try await store.client(id: "native")?.redirectURIs == ["com.example.app:/other"])
            #expect(try await store.user(login: "alice") == before)
            #expect(try await store.user(login: "alice2") == nil)
        }
    }

    @Test("apply validates a programmatic configuration too")
    func validatesInCode() async throws {
        try await withSandboxStore { store, _ in
            let seeder = Seeder(store: store, hasher: StoreSamples.hasher)
            let seed = SeedConfiguration(clients: [ClientSeed(clientID: "x", grantTypes: ["password"])])
            await #expect {
                _ = try await seeder.apply(seed)
            } throws: { error in
                (error as? SeedConfigurationError)?.path == "clients[0].grant_types"
            }
            let clients = try await store.clients()
            #expect(clients.isEmpty)
        }
    }
}

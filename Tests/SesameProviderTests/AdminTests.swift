import Foundation
import SesameProtocol
import Testing
import StoreTesting
@testable import SesameProvider
import SesameStore

/// Runs `body` with a ServerAdmin opened on a fresh data directory.
func withAdmin<T>(_ body: (ServerAdmin, StoreSandbox) async throws -> T) async throws -> T {
    let sandbox = try StoreSandbox.make()
    defer { sandbox.remove() }
    let admin = try await ServerAdmin.open(
        dataDirectory: sandbox.dataDirectory, logger: StoreSamples.logger, hasher: StoreSamples.hasher)
    do {
        let result = try await body(admin, sandbox)
        try await admin.close()
        return result
    } catch {
        try? await admin.close()
        throw error
    }
}

@Suite("ServerAdmin: clients")
struct AdminClientTests {
    @Test("a public client gets no secret; a confidential one gets a secret shown once and stored hashed")
    func addClients() async throws {
        try await withAdmin { admin, _ in
            let (native, nativeSecret) = try await admin.addClient(
                ClientSpec(clientID: "native", redirectURIs: ["com.example.app:/cb", "http://127.0.0.1/cb"]))
            #expect(nativeSecret == nil)
            #expect(native.tokenEndpointAuthMethod == ClientAuthenticationMethod.none)
            #expect(native.secretHash == nil)

            let (backend, secret) = try await admin.addClient(
                ClientSpec(
                    clientID: "backend", name: "Backend", confidential: true,
                    redirectURIs: ["https://backend.example.com/cb"],
                    grantTypes: [.authorizationCode, .clientCredentials], idTokenSigningAlg: "ES256"))
            let plain = try #require(secret)
            #expect(Base64URL.decode(plain)?.count == 32)
            #expect(backend.tokenEndpointAuthMethod == .clientSecretBasic)
            let stored = try #require(try await admin.store.client(id: "backend"))
            let hash = try #require(stored.secretHash)
            #expect(!hash.contains(plain))
            #expect(hash == GeneratedClientSecret.storedHash(of: plain), "a generated secret is kept as its SHA-256")
            #expect(stored.idTokenSigningAlg == "ES256")
            #expect(stored.accessTokenSigningAlg == "RS256", "RS256 unless asked")
            let (fast, _) = try await admin.addClient(
                ClientSpec(clientID: "fast", redirectURIs: ["https://fast.example/cb"], accessTokenSigningAlg: "ES256"))
            #expect(fast.accessTokenSigningAlg == "ES256")
            #expect(try await admin.store.client(id: "fast")?.accessTokenSigningAlg == "ES256")
            try await admin.removeClient(id: "fast")
            #expect(try await admin.clients().map(\.clientID) == ["backend", "native"])
        }
    }

    @Test("duplicate ids, unknown ids and invalid metadata fail with AdminError")
    func clientErrors() async throws {
        try await withAdmin { admin, _ in
            _ = try await admin.addClient(ClientSpec(clientID: "app", redirectURIs: ["https://app.example/cb"]))
            await #expect(throws: AdminError.clientExists(id: "app")) {
                _ = try await admin.addClient(ClientSpec(clientID: "app", redirectURIs: ["https://app.example/cb"]))
            }
            await #expect(throws: AdminError.clientNotFound(id: "ghost")) {
                try await admin.removeClient(id: "ghost")
            }
            try await admin.removeClient(id: "app")
            #expect(try await admin.clients().isEmpty)

            let invalid: [(ClientSpec, String)] = [
                (ClientSpec(clientID: "a", redirectURIs: ["https://a.example/cb"], grantTypes: [.clientCredentials]), "grant_types"),
                (ClientSpec(clientID: "a", redirectURIs: ["https://a.example/cb#frag"]), "redirect_uris[0]"),
                (ClientSpec(clientID: "a", redirectURIs: ["http://a.example/cb"]), "redirect_uris[0]"),
                (ClientSpec(clientID: "a", redirectURIs: ["myapp:/cb"]), "redirect_uris[0]"),
                (ClientSpec(clientID: "a", redirectURIs: ["/relative"]), "redirect_uris[0]"),
                (ClientSpec(clientID: "a", redirectURIs: []), "redirect_uris"),
                (ClientSpec(clientID: "a", redirectURIs: ["https://a.example/cb"], postLogoutRedirectURIs: ["javascript:alert(1)"]), "post_logout_redirect_uris[0]"),
                (ClientSpec(clientID: "a", redirectURIs: ["https://a.example/cb"], idTokenSigningAlg: "HS256"), "id_token_signed_response_alg"),
                (ClientSpec(clientID: "a", redirectURIs: ["https://a.example/cb"], accessTokenSigningAlg: "HS256"), "access_token_signed_response_alg"),
                (ClientSpec(clientID: "a", redirectURIs: ["https://a.example/cb"], accessTokenSigningAlg: "none"), "access_token_signed_response_alg"),
                (ClientSpec(clientID: "a b", redirectURIs: ["https://a.example/cb"]), "client_id"),
                (ClientSpec(clientID: "a", redirectURIs: ["https://a.example/cb"], tokenEndpointAuthMethod: .clientSecretPost), "token_endpoint_auth_method"),
                (ClientSpec(clientID: "a", redirectURIs: ["https://a.example/cb"], accessTokenLifetime: 0), "access_token_lifetime"),
                (ClientSpec(clientID: "a", redirectURIs: ["https://a.example/cb"], scopes: ["open id"]), "scope"),
            ]
            for (spec, field) in invalid {
                await #expect {
                    _ = try await admin.addClient(spec)
                } throws: { error in
                    guard case AdminError.invalidClient(let actual, _) = error else { return false }
                    return actual == field
                }
            }
            #expect(try await admin.clients().isEmpty)
        }
    }

    @Test("redirect URI rules: https, loopback http, reverse-domain private-use schemes")
    func redirectRules() throws {
        for uri in [
            "https://app.example.com/cb", "http://127.0.0.1/cb", "http://127.0.0.1:8080/cb",
            "http://[::1]/cb", "http://localhost/cb", "com.example.app:/oauth2redirect",
        ] {
            #expect(throws: Never.self) { try ClientValidation.checkRedirectURI(uri, field: "r") }
        }
        #expect {
            _ = try ClientValidation.checkGrantTypes(["password"], confidential: true)
        } throws: { error in
            (error as? ClientValidation.Issue)?.reason.contains("RFC 9700 §2.4") == true
        }
        #expect {
            _ = try ClientValidation.checkGrantTypes(["implicit"], confidential: false)
        } throws: { error in
            (error as? ClientValidation.Issue)?.field == "grant_types"
        }
    }
}

@Suite("ServerAdmin: users and keys")
struct AdminUserTests {
    @Test("add, list and remove users by id, username or email")
    func users() async throws {
        try await withAdmin { admin, _ in
            let alice = try await admin.addUser(username: "Alice", email: "alice@example.com", password: "wonderland")
            #expect(alice.username == "alice")
            #expect(alice.emailVerified)
            let aliceHash = try #require(alice.passwordHash)
            #expect(StoreSamples.hasher.verify("wonderland", against: aliceHash))
            let bob = try await admin.addUser(username: "bob", email: "bob@example.com", password: "builder-bob")
            let carol = try await admin.addUser(username: "carol", email: "carol@example.com", password: "carol-pass")
            #expect(try await admin.users().map(\.username) == ["alice", "bob", "carol"])

            await #expect(throws: AdminError.userExists(field: "username", value: "ALICE")) {
                _ = try await admin.addUser(username: "ALICE", email: "other@example.com", password: "a-fine-password")
            }
            await #expect(throws: AdminError.userExists(field: "email", value: "Bob@Example.com")) {
                _ = try await admin.addUser(username: "robert", email: "Bob@Example.com", password: "a-fine-password")
            }
            await #expect(throws: AdminError.invalidUser(field: "password", reason: "is too short; use at least 8 characters")) {
                _ = try await admin.addUser(username: "dave", email: "dave@example.com", password: "1234567")
            }
            // The one PasswordPolicy that sign-up uses: a common password, or the user's own
            // email or username, is refused here too.
            for weak in ["password1", "Frank@Example.com", "FRANKIE1"] {
                await #expect {
                    _ = try await admin.addUser(username: "frankie1", email: "frank@example.com", password: weak)
                } throws: { error in
                    guard case AdminError.invalidUser(let field, let reason) = error else { return false }
                    return field == "password" && reason.hasPrefix("is too weak")
                }
            }
            await #expect {
                _ = try await admin.addUser(username: "eve", email: "eve-at-example", password: "a-fine-password")
            } throws: { error in
                guard case AdminError.invalidUser(let field, _) = error else { return false }
                return field == "email"
            }

            try await admin.removeUser(login: "ALICE@example.com")
            try await admin.removeUser(login: "BOB")
            try await admin.removeUser(login: carol.id)
            #expect(try await admin.users().isEmpty)
            #expect(bob.id != carol.id)
            await #expect(throws: AdminError.userNotFound(login: "alice")) {
                try await admin.removeUser(login: "alice")
            }
        }
    }

    @Test("rotateKeys keeps old keys published for the longest token lifetime plus 5 minutes")
    func rotateKeys() async throws {
        try await withAdmin { admin, _ in
            _ = try await admin.addClient(
                ClientSpec(clientID: "a", redirectURIs: ["https://a.example/cb"], accessTokenLifetime: 1200, idTokenLifetime: 600))
            _ = try await admin.addClient(
                ClientSpec(clientID: "b", redirectURIs: ["https://b.example/cb"], accessTokenLifetime: 300, idTokenLifetime: 1800))
            try await admin.keyRing.ensureKeys()
            let before = try await admin.keyRing.keys()
            let created = try await admin.rotateKeys()
            #expect(created.count == 2)
            let all = try await admin.keyRing.keys()
            #expect(all.count == 4)
            for old in all where before.contains(where: { $0.kid == old.kid }) {
                let retired = try #require(old.retiredAt)
                #expect(old.expiresAt == retired.addingTimeInterval(1800 + 300))
            }
        }
    }

    @Test("open on a new directory creates it, and a reopen sees the same data")
    func reopen() async throws {
        let sandbox = try StoreSandbox.make()
        defer { sandbox.remove() }
        let directory = DataDirectory(url: sandbox.directory.appendingPathComponent("data"))
        let admin = try await ServerAdmin.open(dataDirectory: directory, logger: StoreSamples.logger, hasher: StoreSamples.hasher)
        _ = try await admin.addClient(ClientSpec(clientID: "app", redirectURIs: ["https://app.example/cb"]))
        try await admin.close()
        #expect(FileManager.default.fileExists(atPath: directory.databaseURL.path))
        #expect(FileManager.default.fileExists(atPath: directory.masterKeyURL.path))
        let again = try await ServerAdmin.open(dataDirectory: directory, logger: StoreSamples.logger, hasher: StoreSamples.hasher)
        #expect(try await again.clients().map(\.clientID) == ["app"])
        try await again.close()
    }
}

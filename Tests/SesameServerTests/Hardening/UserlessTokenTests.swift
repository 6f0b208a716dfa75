import Foundation
import SQLKit
import SesameProtocol
import SesameTesting
import StoreTesting
import Testing
@testable import SesameServer
@testable import SesameStore

/// A token without a user is never a user (issue #44): a `client_credentials` token says so
/// (`gty`) and every user endpoint refuses it whatever its `sub`; client ids and user subjects
/// never collide, in either order of creation; a client revokes and introspects only what is its
/// own, unless the operator made it a resource server that may see every token.
@Suite("Tokens without a user, revocation and introspection per client")
struct UserlessTokenTests {
    /// A first-party confidential client with the client_credentials grant.
    static func addService(_ server: TestServer, id: String, introspectsAny: Bool = false) async throws -> String {
        let admin = ServerAdmin(store: server.store, hasher: server.passwordHasher, keyRing: server.keyRing)
        var spec = ClientSpec(
            clientID: id, confidential: true, redirectURIs: ["https://service.example.com/cb"],
            grantTypes: [.authorizationCode, .clientCredentials], scopes: ["openid", "profile", "email", "api.read"],
            firstParty: true)
        spec.introspectsAnyToken = introspectsAny
        let (_, secret) = try await admin.addClient(spec)
        return try #require(secret)
    }

    static func clientToken(_ server: TestServer, id: String, secret: String) async throws -> String {
        let response = try await server.client().postForm(
            "/token", ["grant_type": "client_credentials", "scope": "api.read"], headers: HTTPTestClient.basic(id, secret))
        try #require(response.status == 200, "\(response.text)")
        return try response.json(TokenResponse.self).accessToken
    }

    @Test("a client whose id is a user's subject is refused, whichever was created first")
    func noCollisions() async throws {
        try await withTestServer { server in
            let user = try #require(try await server.store.user(login: Fixtures.username))
            let admin = ServerAdmin(store: server.store, hasher: server.passwordHasher, keyRing: server.keyRing)
            await #expect(throws: AdminError.self) {
                _ = try await admin.addClient(ClientSpec(clientID: user.id, confidential: true, grantTypes: [.clientCredentials]))
            }
            await #expect(throws: StoreError.conflict(field: "client_id")) {
                try await server.store.upsertClient(ClientRecord(clientID: user.id, name: "x", grantTypes: [.clientCredentials]))
            }
            // The other order: a client first, then a user with that id (an operator's seed, or
            // any path that names the id).
            _ = try await Self.addService(server, id: "svc-before")
            await #expect(throws: StoreError.conflict(field: "id")) {
                try await server.store.createUser(UserRecord(id: "svc-before", username: "svc", email: "svc@example.com"))
            }
        }
    }

    @Test("a client_credentials token says it has no user and is refused by userinfo and every account API, even with a user's sub", arguments: StoreBackend.available)
    func clientTokenIsNoUser(backend: StoreBackend) async throws {
        try await withTestServer(backend) { server in
            let secret = try await Self.addService(server, id: "svc")
            // A collision from before the rule (written past the store's check): a user whose id
            // is the client's.
            let store = try #require(server.store as? SQLIdentityStore)
            try await store.database.insert(into: "users")
                .columns("id", "username", "email", "email_verified", "password_hash", "claims", "created_at", "updated_at")
                .values("svc", "victim", "victim@example.com", true, nil as String?, "{\"sub\":\"\"}", 0.0, 0.0)
                .run()
            let token = try await Self.clientToken(server, id: "svc", secret: secret)
            let claims = JWTParts.payload(token)
            #expect(claims["sub"] as? String == "svc")
            #expect(claims["gty"] as? String == "client_credentials", "the token says it has no user")
            #expect(claims["auth_time"] == nil)
            let client = server.client()
            let bearer = ["Authorization": "Bearer \(token)"]
            for (method, path, body) in [
                ("GET", "/userinfo", nil), ("GET", "/api/profile", nil),
                ("PATCH", "/api/profile", #"{"name":"Mallory"}"#), ("POST", "/api/email", #"{"email":"mallory@example.com"}"#),
                ("GET", "/api/devices", nil), ("GET", "/api/mfa", nil), ("GET", "/api/passkeys", nil),
            ] {
                var headers = bearer
                if body != nil { headers["Content-Type"] = "application/json" }
                let response = try await client.request(method, path, body: body.map { Data($0.utf8) }, headers: headers)
                #expect(response.status == 401, "\(method) \(path): \(response.status) \(response.text)")
                #expect(response.header("WWW-Authenticate")?.contains("invalid_token") == true, "\(method) \(path)")
            }
            let victim = try #require(try await server.store.user(id: "svc"))
            #expect(victim.claims.name == nil && victim.email == "victim@example.com", "nothing of the user changed")
        }
    }

    @Test("revoking another client's token is refused (RFC 7009 section 2.1) and changes nothing")
    func revokeOthersToken() async throws {
        try await withTestServer { server in
            let (tokens, _) = try await OAuthFlow(browser: server.client()).tokens()
            let refresh = try #require(tokens.refreshToken)
            let other = try await Self.addService(server, id: "svc")
            for token in [refresh, tokens.accessToken] {
                let refused = try await server.client().postForm(
                    "/revoke", ["token": token], headers: HTTPTestClient.basic("svc", other))
                #expect(refused.status == 400, "\(refused.text)")
                #expect(refused.jsonObject["error"] as? String == "unauthorized_client")
            }
            #expect(try await server.client().userInfo(tokens.accessToken).status == 200, "still active")
            #expect(try await server.client().refresh(refresh).status == 200, "still active")
            let unknown = try await server.client().postForm(
                "/revoke", ["token": "never-issued"], headers: HTTPTestClient.basic("svc", other))
            #expect(unknown.status == 200, "an unknown token is still 200 (section 2.2)")
        }
    }

    @Test("introspection: a client sees its own tokens; another's is inactive unless it may introspect any")
    func introspectionPolicy() async throws {
        try await withTestServer { server in
            let (tokens, _) = try await OAuthFlow(browser: server.client()).tokens()
            let plain = try await Self.addService(server, id: "svc")
            let resourceServer = try await Self.addService(server, id: "rs", introspectsAny: true)
            func active(_ token: String, as id: String, _ secret: String) async throws -> Bool {
                let response = try await server.client().postForm(
                    "/introspect", ["token": token], headers: HTTPTestClient.basic(id, secret))
                try #require(response.status == 200, "\(response.text)")
                return response.jsonObject["active"] as? Bool == true
            }
            for token in [tokens.accessToken, try #require(tokens.refreshToken)] {
                #expect(try await !active(token, as: "svc", plain), "another client's token is not svc's to see")
                #expect(try await active(token, as: "rs", resourceServer))
            }
            let own = try await Self.clientToken(server, id: "svc", secret: plain)
            #expect(try await active(own, as: "svc", plain))
            // Only a confidential client may be a resource server.
            let admin = ServerAdmin(store: server.store, hasher: server.passwordHasher, keyRing: server.keyRing)
            var publicRS = ClientSpec(clientID: "public-rs", redirectURIs: ["https://x.example.com/cb"])
            publicRS.introspectsAnyToken = true
            await #expect(throws: AdminError.self) { _ = try await admin.addClient(publicRS) }
        }
    }
}

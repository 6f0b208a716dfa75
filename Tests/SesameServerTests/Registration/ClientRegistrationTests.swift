import Foundation
import Logging
import SesameProtocol
import SesameStore
import SesameTesting
import StoreTesting
import Testing
@testable import SesameServer

/// Dynamic client registration (RFC 7591) and the client configuration endpoint (RFC 7592,
/// issue #49) over real HTTP: off by default; open and initial-access-token modes; what a
/// registration may ask for; the registration access token replaced by every read and update;
/// the total rate limit; unused clients expiring; no silent single sign-on into a client that
/// registered itself.
@Suite("Dynamic client registration (RFC 7591, RFC 7592)")
struct ClientRegistrationTests {
    static let json = ["Content-Type": "application/json"]

    static func open(_ configuration: inout ServerConfiguration) {
        configuration.registration = ClientRegistrationPolicy(mode: .open)
    }

    static func register(
        _ client: HTTPTestClient, _ body: String, bearer: String? = nil
    ) async throws -> TestResponse {
        var headers = json
        if let bearer { headers["Authorization"] = "Bearer \(bearer)" }
        return try await client.post("/register", body: Data(body.utf8), headers: headers)
    }

    static let agent = #"{"client_name": "Agent", "redirect_uris": ["http://127.0.0.1/callback"], "software_id": "agent-7"}"#

    @Test("off by default: no /register, nothing in discovery")
    func offByDefault() async throws {
        try await withTestServer { server in
            let client = server.client()
            #expect(try await Self.register(client, Self.agent).status == 404)
            let discovery = try await client.get("/.well-known/openid-configuration")
            #expect(!discovery.text.contains("registration_endpoint"))
        }
    }

    @Test("open: a public client registers, signs a user in with PKCE, reads, replaces and deletes its registration", arguments: StoreBackend.available)
    func lifecycle(backend: StoreBackend) async throws {
        try await withTestServer(backend, configure: Self.open) { server in
            let client = server.client()
            let discovery = try await client.get("/.well-known/openid-configuration")
            #expect(discovery.text.contains(#""registration_endpoint":"\#(server.issuer)/register""#), "\(discovery.text)")

            let created = try await Self.register(client, Self.agent)
            #expect(created.status == 201, "\(created.text)")
            #expect(created.header("Cache-Control") == "no-store")
            let registered = try created.json(ClientRegistrationResponse.self)
            #expect(registered.clientSecret == nil && registered.tokenEndpointAuthMethod == "none")
            #expect(registered.grantTypes == ["authorization_code", "refresh_token"] && registered.responseTypes == ["code"])
            #expect(registered.scope == "openid profile email offline_access")
            #expect(registered.registrationClientURI == "\(server.issuer)/register/\(registered.clientID)")
            #expect(registered.softwareID == "agent-7")
            var token = try #require(registered.registrationAccessToken)
            let stored = try await server.store.clientRegistration(clientID: registered.clientID)
            #expect(stored?.accessTokenDigest == SecretDigest.of(token) && stored?.usedAt == nil, "kept as a digest")

            // A user signs in to it with PKCE, as to any public client.
            var flow = OAuthFlow(browser: server.client())
            flow.clientID = registered.clientID
            flow.redirectURI = "http://127.0.0.1:53117/callback"
            flow.scope = "openid offline_access"
            let (tokens, _) = try await flow.tokens()
            #expect(tokens.refreshToken != nil)
            #expect(try await server.store.clientRegistration(clientID: registered.clientID)?.usedAt != nil, "used: it will not expire")

            // RFC 7592 §2.1: read; the answer carries a new token and the old one stops working.
            let path = "/register/\(registered.clientID)"
            let read = try await client.get(path, headers: ["Authorization": "Bearer \(token)"])
            #expect(read.status == 200, "\(read.text)")
            let newToken = try #require(try read.json(ClientRegistrationResponse.self).registrationAccessToken)
            #expect(newToken != token)
            #expect(try await client.get(path, headers: ["Authorization": "Bearer \(token)"]).status == 401)
            token = newToken

            // §2.2: replace the metadata; a public client stays public.
            let replaced = try await client.request(
                "PUT", path,
                body: Data(#"{"client_id": "\#(registered.clientID)", "client_name": "Agent 2", "redirect_uris": ["https://agent.example.com/cb"]}"#.utf8),
                headers: Self.json.merging(["Authorization": "Bearer \(token)"]) { $1 })
            #expect(replaced.status == 200, "\(replaced.text)")
            let after = try replaced.json(ClientRegistrationResponse.self)
            #expect(after.clientName == "Agent 2" && after.redirectURIs == ["https://agent.example.com/cb"])
            token = try #require(after.registrationAccessToken)
            let toSecret = try await client.request(
                "PUT", path, body: Data(#"{"token_endpoint_auth_method": "client_secret_basic", "redirect_uris": ["https://a.example/cb"]}"#.utf8),
                headers: Self.json.merging(["Authorization": "Bearer \(token)"]) { $1 })
            #expect(toSecret.status == 400 && toSecret.text.contains("invalid_client_metadata"), "\(toSecret.text)")

            // Another client's path, an operator's client, no token: all the same 401.
            for (other, bearer) in [(Fixtures.nativeApp, token), (registered.clientID, "nope"), (registered.clientID, "")] {
                let refused = try await client.get("/register/\(other)", headers: bearer.isEmpty ? [:] : ["Authorization": "Bearer \(bearer)"])
                #expect(refused.status == 401 && refused.header("WWW-Authenticate")?.contains("invalid_token") == true, "\(other)")
            }

            // §2.3: delete; the client and its tokens are gone.
            #expect(try await client.request("DELETE", path, headers: ["Authorization": "Bearer \(token)"]).status == 204)
            #expect(try await server.store.client(id: registered.clientID) == nil)
            #expect(try await client.get(path, headers: ["Authorization": "Bearer \(token)"]).status == 401)
            #expect(try await client.refresh(try #require(tokens.refreshToken), clientID: registered.clientID).status != 200)

            let audited = try await Self.auditEvents(server, ["client.registered", "client.registration_updated", "client.registration_deleted"])
            #expect(audited == ["client.registered", "client.registration_updated", "client.registration_deleted"])
        }
    }

    @Test("what a registration may not ask for is refused with the RFC 7591 error naming it")
    func refusals() async throws {
        try await withTestServer(configure: Self.open) { server in
            let client = server.client()
            for (body, error, says) in [
                (#"{"redirect_uris": ["com.example.app:/cb"]}"#, "invalid_redirect_uri", "scheme"),
                (#"{"redirect_uris": ["http://agent.example.com/cb"]}"#, "invalid_redirect_uri", "loopback"),
                (#"{"redirect_uris": ["https://a.example/cb#frag"]}"#, "invalid_redirect_uri", "redirect_uris"),
                (#"{"redirect_uris": []}"#, "invalid_redirect_uri", "redirect URI"),
                (#"{"redirect_uris": ["https://a.example/cb"], "token_endpoint_auth_method": "client_secret_basic"}"#, "invalid_client_metadata", "public clients only"),
                (#"{"redirect_uris": ["https://a.example/cb"], "token_endpoint_auth_method": "private_key_jwt"}"#, "invalid_client_metadata", "private_key_jwt"),
                (#"{"redirect_uris": ["https://a.example/cb"], "grant_types": ["client_credentials"]}"#, "invalid_client_metadata", "client_credentials"),
                (#"{"redirect_uris": ["https://a.example/cb"], "grant_types": ["password"]}"#, "invalid_client_metadata", "password"),
                (#"{"redirect_uris": ["https://a.example/cb"], "grant_types": ["urn:ietf:params:oauth:grant-type:token-exchange"]}"#, "invalid_client_metadata", "token-exchange"),
                (#"{"redirect_uris": ["https://a.example/cb"], "response_types": ["token"]}"#, "invalid_client_metadata", "response_types"),
                (#"{"redirect_uris": ["https://a.example/cb"], "scope": "openid sesame:admin"}"#, "invalid_client_metadata", "sesame:admin"),
                (#"{"redirect_uris": "https://a.example/cb"}"#, "invalid_client_metadata", "redirect_uris"),
                (#"{"redirect_uris": ["https://a.example/cb"], "client_name": "\#(String(repeating: "n", count: 101))"}"#, "invalid_client_metadata", "client_name"),
                (#"[1, 2]"#, "invalid_client_metadata", "JSON object"),
            ] {
                let refused = try await Self.register(client, body)
                #expect(refused.status == 400, "\(body): \(refused.status) \(refused.text)")
                let answer = try? refused.json(APIError.self)
                #expect(answer?.error == error && answer?.errorDescription?.contains(says) == true, "\(body): \(refused.text)")
            }
            // An API the operator did not open to registered clients: no token for it.
            try await server.store.upsertAPI(APIRecord(identifier: "https://bank-api.example.com", name: "Bank", scopes: ["payments:write"]))
            let registered = try await Self.register(client, Self.agent).json(ClientRegistrationResponse.self)
            var flow = OAuthFlow(browser: server.client())
            flow.clientID = registered.clientID
            flow.redirectURI = "http://127.0.0.1/callback"
            flow.scope = "openid"
            let bank = try await flow.authorize(OAuthFlow.Attempt(), extra: ["resource": "https://bank-api.example.com"])
            #expect(bank.locationQuery["error"] == "invalid_target", "\(bank.location ?? "")")
            let scoped = try await Self.register(
                client, #"{"redirect_uris": ["https://a.example/cb"], "scope": "openid payments:write"}"#)
            #expect(scoped.status == 400 && scoped.text.contains("payments:write"), "\(scoped.text)")
            try await server.store.removeClient(id: registered.clientID)

            let form = try await client.postForm("/register", ["redirect_uris": "https://a.example/cb"])
            #expect(form.status == 400, "not JSON")
            #expect(try await server.store.clients().allSatisfy { !$0.clientID.hasPrefix("dyn-") }, "nothing registered")
        }
    }

    @Test("token mode: an initial access token is needed, and is used up; the total limit answers 429")
    func initialAccessTokensAndLimit() async throws {
        try await withTestServer(configure: { configuration in
            configuration.registration = ClientRegistrationPolicy(mode: .token, registrationsPerHour: 2)
        }) { server in
            let client = server.client()
            let missing = try await Self.register(client, Self.agent)
            #expect(missing.status == 401 && missing.header("WWW-Authenticate")?.contains("invalid_token") == true)
            let admin = ServerAdmin(store: server.store, hasher: server.passwordHasher, keyRing: server.keyRing)
            let once = try await admin.createInitialAccessToken(uses: 1, lifetime: 3600, now: server.clock.now())
            #expect(try await Self.register(client, Self.agent, bearer: once).status == 201)
            #expect(try await Self.register(client, Self.agent, bearer: once).status == 401, "used up")
            let expiring = try await admin.createInitialAccessToken(uses: 5, lifetime: 60, now: server.clock.now())
            server.clock.advance(by: 61)
            #expect(try await Self.register(client, Self.agent, bearer: expiring).status == 401, "expired")

            let twice = try await admin.createInitialAccessToken(uses: 5, lifetime: 3600, now: server.clock.now())
            #expect(try await Self.register(client, Self.agent, bearer: twice).status == 201)
            let third = try await Self.register(client, Self.agent, bearer: twice)
            #expect(third.status == 429 && third.header("Retry-After") != nil, "\(third.status) \(third.text)")
        }
    }

    @Test("a registered client that obtained no token is removed after the lifetime; a used one stays")
    func unusedClientsExpire() async throws {
        try await withTestServer(configure: Self.open) { server in
            let client = server.client()
            let unused = try await Self.register(client, Self.agent).json(ClientRegistrationResponse.self)
            let used = try await Self.register(client, Self.agent).json(ClientRegistrationResponse.self)
            var flow = OAuthFlow(browser: server.client())
            flow.clientID = used.clientID
            flow.redirectURI = "http://127.0.0.1/callback"
            flow.scope = "openid"
            _ = try await flow.tokens()

            let later = server.clock.now().addingTimeInterval(ClientRegistrationPolicy().unusedClientLifetime + 60)
            var purge = ExpiredDataPurge(
                identityStore: server.store, accountStore: server.store, mfaStore: server.store, interval: .seconds(600),
                now: { later }, logger: Logger(label: "registration-test"))
            purge.unusedRegistrations = (server.store, ClientRegistrationPolicy().unusedClientLifetime)
            await purge.purgeOnce()
            #expect(try await server.store.client(id: unused.clientID) == nil)
            #expect(try await server.store.clientRegistration(clientID: unused.clientID) == nil)
            #expect(try await server.store.client(id: used.clientID) != nil)
        }
    }

    @Test("a browser signed in elsewhere is not signed in silently to a client that registered itself")
    func noSilentSignIn() async throws {
        try await withTestServer(configure: Self.open) { server in
            let browser = server.client()
            _ = try await OAuthFlow(browser: browser).tokens()  // an SSO session in this browser
            let registered = try await Self.register(server.client(), Self.agent).json(ClientRegistrationResponse.self)
            var flow = OAuthFlow(browser: browser)
            flow.clientID = registered.clientID
            flow.redirectURI = "http://127.0.0.1/callback"
            flow.scope = "openid"
            let silent = try await flow.authorize(OAuthFlow.Attempt(), extra: ["prompt": "none"])
            #expect(silent.status == 303 && silent.locationQuery["error"] == "consent_required", "\(silent.location ?? "")")
            let page = try await flow.authorize(OAuthFlow.Attempt())
            #expect(page.status == 200 && page.text.contains("Agent"), "the sign-in page names the app")
            // The operator's own client still gets the session.
            let own = try await OAuthFlow(browser: browser).authorize(OAuthFlow.Attempt())
            #expect(own.status == 303 && own.locationQuery["code"] != nil)
        }
    }

    static func auditEvents(_ server: TestServer, _ events: [String]) async throws -> [String] {
        var records: [AuditRecord] = []
        for _ in 0..<100 where records.count < events.count {
            records = try await server.store.auditRecords(AuditQuery(events: events))
            if records.count < events.count { try await Task.sleep(for: .milliseconds(50)) }
        }
        return records.map(\.event)
    }
}

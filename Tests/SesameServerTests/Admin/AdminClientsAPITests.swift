import Foundation
import SesameProtocol
import SesameTesting
import StoreTesting
import Testing
@testable import SesameServer

/// Clients, signing keys and the audit log in the admin API over HTTP (issue #47): an edit of
/// redirect URIs seen by the next `/authorize`, validation that names the field, a secret
/// rotation that needs a recent sign-in and is shown once, key rotation, and the audit log paged
/// and exported as NDJSON.
@Suite("Admin API: clients, keys, audit")
struct AdminClientsAPITests {
    @Test("an edit of redirect URIs is seen by the next /authorize; a bad URI names the field; a help desk may not edit")
    func redirectURIs() async throws {
        try await withTestServer { server in
            let admin = try await AdminOperator.signIn(server, username: "boss", role: .admin)
            let auditor = try await AdminOperator.signIn(server, username: "reader", role: .auditor)
            let helpdesk = try await AdminOperator.signIn(server, username: "desk", role: .helpdesk)
            let listed = try await auditor.get("/admin/api/clients")
            #expect(listed.status == 200 && !listed.text.contains("secret_hash") && !listed.text.contains("$scrypt$") && !listed.text.contains("$sha256$"))
            #expect(try listed.json(AdminClientList.self).clients.contains { $0.clientID == Fixtures.nativeApp })
            #expect(try await helpdesk.get("/admin/api/clients").status == 403)

            let newURI = "com.example.app:/new-callback"
            let edit = #"{"redirect_uris": ["\#(newURI)"]}"#
            #expect(try await helpdesk.post("/admin/api/clients/\(Fixtures.nativeApp)", json: edit).status == 403)
            #expect(try await auditor.post("/admin/api/clients/\(Fixtures.nativeApp)", json: edit).status == 403)
            let changed = try await admin.post("/admin/api/clients/\(Fixtures.nativeApp)", json: edit)
            #expect(changed.status == 200, "\(changed.text)")
            #expect(try changed.json(AdminClient.self).redirectURIs == [newURI])

            let flow = OAuthFlow(browser: server.client(), redirectURI: newURI)
            #expect(try await flow.authorize(.init()).status == 200, "the new URI is accepted at once")
            let old = try await OAuthFlow(browser: server.client()).authorize(.init())
            #expect(old.status == 400, "the old one is refused")

            let bad = try await admin.post("/admin/api/clients/\(Fixtures.nativeApp)", json: #"{"redirect_uris": ["http://example.com/cb#frag"]}"#)
            #expect(bad.status == 400)
            #expect(try bad.json(APIError.self).errorDetails?.first?.field.hasPrefix("redirect_uri") == true, "\(bad.text)")
            for body in ["[]", #"{"redirect_uris": "x"}"#, #"{"access_token_lifetime": 1e30}"#, "not json"] {
                #expect(try await admin.post("/admin/api/clients/\(Fixtures.nativeApp)", json: body).status == 400, "\(body)")
            }
            #expect(try await admin.post("/admin/api/clients/nobody", json: "{}").status == 404)
        }
    }

    @Test("clients without a secret that authenticate (private_key_jwt, tls_client_auth) can be edited, and keep their method")
    func keyAndCertificateClientsEdit() async throws {
        try await withTestServer { server in
            let admin = try await AdminOperator.signIn(server, username: "boss", role: .admin)
            let operatorAdmin = ServerAdmin(store: server.store, hasher: server.passwordHasher, keyRing: server.keyRing)
            let jwks = #"{"keys":[{"kty":"EC","crv":"P-256","kid":"k1","x":"f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU","y":"x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0"}]}"#
            _ = try await operatorAdmin.addClient(ClientSpec(clientID: "keyed", grantTypes: [.clientCredentials], jwks: jwks))
            var certificate = ClientSpec(clientID: "mtls", grantTypes: [.clientCredentials])
            certificate.tlsClientAuthSubject = .subjectDN("CN=mtls")
            _ = try await operatorAdmin.addClient(certificate)
            for (id, method) in [("keyed", "private_key_jwt"), ("mtls", "tls_client_auth")] {
                let changed = try await admin.post("/admin/api/clients/\(id)", json: #"{"client_name": "Renamed"}"#)
                #expect(changed.status == 200, "\(id): \(changed.text)")
                let view = try changed.json(AdminClient.self)
                #expect(view.name == "Renamed" && view.tokenEndpointAuthMethod == method && view.type == "confidential")
                #expect(view.grantTypes == ["client_credentials"])
            }
            let shown = try await admin.get("/admin/api/clients/mtls")
            #expect(try shown.json(AdminClient.self).tlsClientAuthSubject == .subjectDN("CN=mtls"), "\(shown.text)")
        }
    }

    @Test("a secret rotation needs a recent sign-in, is shown once, and the old secret stops working")
    func secretRotation() async throws {
        try await withTestServer { server in
            let admin = try await AdminOperator.signIn(server, username: "boss", role: .admin)
            let credentials = ["grant_type": "client_credentials"]
            let before = try await server.client().postForm(
                "/token", credentials, headers: HTTPTestClient.basic(Fixtures.backend, Fixtures.backendSecret))
            #expect(before.status == 200, "\(before.text)")

            server.clock.advance(by: AdminActor.recentSignIn + 60)
            let stale = try await admin.post("/admin/api/clients/\(Fixtures.backend)/secret")
            #expect(stale.status == 401 && stale.header("WWW-Authenticate")?.contains("max_age=300") == true, "\(stale.text)")
            server.clock.advance(by: -(AdminActor.recentSignIn + 60))

            let rotated = try await admin.post("/admin/api/clients/\(Fixtures.backend)/secret")
            #expect(rotated.status == 200, "\(rotated.text)")
            let secret = try #require(try rotated.json(AdminClient.self).clientSecret)
            #expect(!(try await admin.get("/admin/api/clients/\(Fixtures.backend)")).text.contains(secret), "shown once")
            let old = try await server.client().rawPostForm(
                "/token", credentials, headers: HTTPTestClient.basic(Fixtures.backend, Fixtures.backendSecret))
            #expect(old.status == 401)
            let new = try await server.client().postForm("/token", credentials, headers: HTTPTestClient.basic(Fixtures.backend, secret))
            #expect(new.status == 200)
            #expect(try await admin.post("/admin/api/clients/\(Fixtures.nativeApp)/secret").status == 400, "a public client has none")
            #expect(try await admin.delete("/admin/api/clients/\(Fixtures.secondApp)").status == 204)
            #expect(try await server.store.client(id: Fixtures.secondApp) == nil)
        }
    }

    @Test("key rotation publishes a new key; the audit log pages and exports as NDJSON with its filters")
    func keysAndAudit() async throws {
        try await withTestServer { server in
            let admin = try await AdminOperator.signIn(server, username: "boss", role: .admin)
            let before = try (try await admin.get("/admin/api/keys")).json(AdminSigningKeyList.self).keys
            let rotated = try await admin.post("/admin/api/keys/rotate")
            #expect(rotated.status == 200, "\(rotated.text)")
            let after = try rotated.json(AdminSigningKeyList.self).keys
            let fresh = Set(after.map(\.kid)).subtracting(before.map(\.kid))
            #expect(!fresh.isEmpty && !rotated.text.contains("PRIVATE"))
            let jwks = try await server.client().get("/jwks")
            #expect(fresh.allSatisfy { jwks.text.contains($0) })

            let victim = try await server.store.user(login: Fixtures.username)!
            for _ in 0..<3 {
                _ = try await admin.post("/admin/api/users/\(victim.id)/disable")
                _ = try await admin.post("/admin/api/users/\(victim.id)/enable")
            }
            await server.running.audit.flush()
            var events: [String] = []
            var cursor: String?
            repeat {
                var query = ["event": "admin.user_disabled,admin.user_enabled", "user_id": victim.id, "limit": "4"]
                if let cursor { query["cursor"] = cursor }
                let page = try (try await admin.get("/admin/api/audit", query: query)).json(AdminAuditPage.self)
                #expect(page.records.allSatisfy { $0.detail["actor"] == admin.user.id })
                events += page.records.map(\.event)
                cursor = page.nextCursor
            } while cursor != nil && events.count < 20
            #expect(events.count == 6 && events.first == AuditEvent.userEnabled.rawValue, "newest first: \(events)")

            let export = try await admin.get("/admin/api/audit/export", query: ["event": "admin."])
            #expect(export.status == 200 && export.header("Content-Type") == "application/x-ndjson")
            let lines = export.text.split(separator: "\n")
            #expect(lines.count >= 7)
            #expect(lines.allSatisfy { (try? JSONDecoder().decode(AdminAuditRecord.self, from: Data($0.utf8))) != nil })
            for bad in [["since": "yesterday"], ["limit": "0"], ["cursor": "-1"], ["event": String(repeating: "e", count: 300)]] {
                #expect(try await admin.get("/admin/api/audit", query: bad).status == 400, "\(bad)")
            }
        }
    }

    @Test("an administrator registers a client (a confidential one's secret answered once), sets its algorithms, app group and profile; a help desk may not")
    func create() async throws {
        try await withTestServer { server in
            let admin = try await AdminOperator.signIn(server, username: "boss", role: .admin)
            let helpdesk = try await AdminOperator.signIn(server, username: "desk", role: .helpdesk)
            let body = #"{"client_id": "billing", "confidential": true, "grant_types": ["client_credentials"], "client_name": "Billing"}"#
            #expect(try await helpdesk.post("/admin/api/clients", json: body).status == 403)
            let created = try await admin.post("/admin/api/clients", json: body)
            #expect(created.status == 201, "\(created.text)")
            let client = try created.json(AdminClient.self)
            let secret = try #require(client.clientSecret)
            #expect(client.type == "confidential" && client.grantTypes == ["client_credentials"] && secret.count >= 40)
            let listed = try await admin.get("/admin/api/clients/billing")
            #expect(!listed.text.contains(secret), "the secret is answered once")
            #expect(try await admin.post("/admin/api/clients", json: body).status == 400, "the id is taken")
            let builtIn = try await admin.post("/admin/api/clients", json: #"{"client_id": "sesame-admin-console"}"#)
            #expect(builtIn.status == 400)
            let noID = try await admin.post("/admin/api/clients", json: #"{"client_name": "x"}"#)
            #expect(noID.status == 400 && (try? noID.json(APIError.self))?.errorDetails?.first?.field == "client_id")

            let app = try await admin.post(
                "/admin/api/clients",
                json: #"{"client_id": "shop", "redirect_uris": ["https://shop.example.com/cb"], "app_group": "group.shop", "id_token_signed_response_alg": "ES256"}"#)
            #expect(app.status == 201, "\(app.text)")
            #expect(try app.json(AdminClient.self).appGroup == "group.shop")
            let edited = try await admin.post("/admin/api/clients/shop", json: #"{"access_token_signed_response_alg": "ES256", "app_group": ""}"#)
            let shop = try edited.json(AdminClient.self)
            #expect(shop.accessTokenSigningAlg == "ES256" && shop.appGroup == nil && shop.idTokenSigningAlg == "ES256")
            let badProfile = try await admin.post("/admin/api/clients/shop", json: #"{"security_profile": "bank-ish"}"#)
            #expect(badProfile.status == 400 && badProfile.text.contains("fapi2"))
            let badAlg = try await admin.post("/admin/api/clients/shop", json: #"{"id_token_signed_response_alg": "none"}"#)
            #expect(badAlg.status == 400, "\(badAlg.text)")
            let switched = try await admin.post("/admin/api/clients/shop", json: #"{"confidential": true}"#)
            #expect(switched.status == 400)
        }
    }
}

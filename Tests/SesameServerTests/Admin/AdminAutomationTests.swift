import Foundation
import SesameProtocol
import SesameTesting
import StoreTesting
import Testing
@testable import SesameServer

/// Automation on the admin API (issue #47: "client credentials for automation"): a confidential
/// client an operator gave a role acts through its own `client_credentials` token with the
/// `sesame:admin` scope, within that role, audited under its client id; without the role, the
/// scope, or with a public client, it is refused.
@Suite("Admin API: automation with client credentials")
struct AdminAutomationTests {
    @Test("a client with the helpdesk role disables a user, may not touch clients; without the role or the scope it is refused")
    func clientCredentials() async throws {
        try await withTestServer { server in
            var backend = try #require(try await server.store.client(id: Fixtures.backend))
            backend.allowedScopes.append("sesame:admin")
            try await server.store.upsertClient(backend)
            let http = server.client()
            func token(_ scope: String?) async throws -> String {
                var form = ["grant_type": "client_credentials"]
                if let scope { form["scope"] = scope }
                let answer = try await http.postForm(
                    "/token", form,
                    headers: HTTPTestClient.basic(Fixtures.backend, Fixtures.backendSecret))
                return try answer.json(TokenResponse.self).accessToken
            }
            let admin = try await token("sesame:admin")
            let auth = ["Authorization": "Bearer \(admin)"]
            let refused = try await http.get("/admin/api/users", headers: auth)
            #expect(refused.status == 403 && refused.text.contains("sesame client role backend"), "\(refused.text)")

            let operatorAdmin = ServerAdmin(store: server.store, hasher: server.passwordHasher, keyRing: server.keyRing)
            try await operatorAdmin.setClientRole(.helpdesk, clientID: Fixtures.backend)
            await #expect(throws: AdminError.self) { try await operatorAdmin.setClientRole(.admin, clientID: Fixtures.nativeApp) }

            let victim = try #require(try await server.store.user(login: Fixtures.username))
            #expect(try await http.get("/admin/api/users", query: ["q": Fixtures.username], headers: auth).status == 200)
            let disabled = try await http.post("/admin/api/users/\(victim.id)/disable", body: Data(), headers: auth)
            #expect(disabled.status == 200, "\(disabled.text)")
            #expect(try await http.get("/admin/api/clients", headers: auth).status == 403, "the helpdesk role has no clients")
            let plain = try await token("api.read")
            #expect(try await http.get("/admin/api/users", headers: ["Authorization": "Bearer \(plain)"]).status == 403, "no admin scope")

            await server.running.audit.flush()
            let records = try await server.store.auditRecords(AuditQuery(events: [AuditEvent.userDisabled.rawValue], limit: 5))
            #expect(records.first?.detail["actor"] == Fixtures.backend && records.first?.detail["role"] == "helpdesk")
            try await operatorAdmin.setClientRole(nil, clientID: Fixtures.backend)
            #expect(try await http.get("/admin/api/users", headers: auth).status == 403, "the role taken away")
        }
    }
}

import Foundation
import SesameProtocol
import SesameTesting
import Testing
@testable import SesameServer

/// Federation providers in the admin API over HTTP (issue #47): registered, changed and removed
/// by an administrator, read by an auditor, refused to a help desk; checked as
/// `sesame provider add` checks them; a broker secret sealed, kept across edits and never answered
/// or audited.
@Suite("Admin API: federation providers")
struct AdminProvidersAPITests {
    @Test("register, list, change, remove; each role's refusals; a secret never comes back")
    func lifecycle() async throws {
        try await withTestServer { server in
            let admin = try await AdminOperator.signIn(server, username: "boss", role: .admin)
            let auditor = try await AdminOperator.signIn(server, username: "reader", role: .auditor)
            let helpdesk = try await AdminOperator.signIn(server, username: "desk", role: .helpdesk)
            let secret = "broker-secret-\(UUID().uuidString)"
            let body = """
                {"id": "acme", "kind": "oidc", "issuer": "https://id.acme.example", "audiences": ["sesame"],
                 "jwks_uri": "https://id.acme.example/jwks", "broker_client_id": "sesame", "broker_client_secret": "\(secret)"}
                """
            #expect(try await helpdesk.post("/admin/api/providers", json: body).status == 403)
            #expect(try await auditor.post("/admin/api/providers", json: body).status == 403)
            let added = try await admin.post("/admin/api/providers", json: body)
            #expect(added.status == 201, "\(added.text)")
            #expect(!added.text.contains(secret))
            let provider = try added.json(AdminFederationProvider.self)
            #expect(provider.hasBrokerSecret && provider.displayName == "acme" && provider.issuer == "https://id.acme.example")
            let sealed = try await server.store.federationProvider(id: "acme")?.brokerClientSecretSealed
            #expect(sealed != nil && sealed?.contains(secret) == false, "sealed at rest")
            #expect(try await admin.post("/admin/api/providers", json: body).status == 400, "the id is taken")

            // The console's page lists it for those who may read providers; never the secret.
            var reader = AdminConsoleTests.Console(http: server.client(), token: auditor.accessToken)
            let page = try await reader.get("/admin/providers")
            #expect(page.status == 200 && page.text.contains("https://id.acme.example") && page.text.contains("yes, as acme"))
            #expect(!page.text.contains(secret) && !page.text.contains(sealed ?? "-"))
            var desk = AdminConsoleTests.Console(http: server.client(), token: helpdesk.accessToken)
            #expect(try await desk.get("/admin/providers").status == 403)

            let listed = try await auditor.get("/admin/api/providers")
            #expect(listed.status == 200 && !listed.text.contains(secret))
            #expect(try listed.json(AdminFederationProviderList.self).providers.map(\.id) == ["acme"])
            #expect(try await helpdesk.get("/admin/api/providers").status == 403)

            let renamed = try await admin.post("/admin/api/providers/acme", json: #"{"display_name": "Acme ID", "link_by_email": true}"#)
            #expect(renamed.status == 200, "\(renamed.text)")
            let after = try renamed.json(AdminFederationProvider.self)
            #expect(after.displayName == "Acme ID" && after.linkByEmail && after.hasBrokerSecret, "the secret stays")
            let bad = try await admin.post("/admin/api/providers/acme", json: #"{"issuer": "ftp://nowhere"}"#)
            #expect(bad.status == 400 && (try? bad.json(APIError.self))?.errorDetails?.first?.field == "issuer", "\(bad.text)")
            let kind = try await admin.post("/admin/api/providers/acme", json: #"{"kind": "google"}"#)
            #expect(kind.status == 400)
            let unknown = try await admin.post("/admin/api/providers", json: #"{"id": "x", "kind": "myspace"}"#)
            #expect(unknown.status == 400 && unknown.text.contains("oidc"))
            #expect(try await admin.post("/admin/api/providers/nobody", json: "{}").status == 404)

            #expect(try await admin.delete("/admin/api/providers/acme").status == 204)
            #expect(try await admin.delete("/admin/api/providers/acme").status == 404)
            #expect(try await server.store.federationProvider(id: "acme") == nil)

            // The audit trail names the operator, never the secret.
            let store = server.store
            var records: [AuditRecord] = []
            for _ in 0..<100 where records.count < 3 {
                records = try await store.auditRecords(AuditQuery(events: ["admin.provider_added", "admin.provider_updated", "admin.provider_removed"]))
                if records.count < 3 { try await Task.sleep(for: .milliseconds(50)) }
            }
            #expect(records.map(\.event) == ["admin.provider_added", "admin.provider_updated", "admin.provider_removed"])
            #expect(records.allSatisfy { $0.detail["actor"] == admin.user.id && !"\($0)".contains(secret) })
        }
    }
}

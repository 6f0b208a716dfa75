import Foundation
import SesameProtocol
import SesameTesting
import Testing
@testable import SesameServer

/// Registered APIs (RFC 8707 resources, issue #49) in the admin API over HTTP: registered,
/// changed and removed by an administrator, read by an auditor, refused to a help desk; checked
/// as `sesame api add` checks them; a client edited to name one, and refused one that is not
/// registered; the change reaches the next token request.
@Suite("Admin API: registered APIs")
struct AdminAPIsAPITests {
    @Test("register, list, change, remove; each role's refusals; clients name registered APIs only")
    func lifecycle() async throws {
        try await withTestServer { server in
            let admin = try await AdminOperator.signIn(server, username: "boss", role: .admin)
            let auditor = try await AdminOperator.signIn(server, username: "reader", role: .auditor)
            let helpdesk = try await AdminOperator.signIn(server, username: "desk", role: .helpdesk)
            let shop = "https://shop-api.example.com"
            let path = "/admin/api/apis/" + shop.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            let body = #"{"identifier": "\#(shop)", "name": "Shop", "scopes": ["orders:read"]}"#
            #expect(try await helpdesk.post("/admin/api/apis", json: body).status == 403)
            #expect(try await auditor.post("/admin/api/apis", json: body).status == 403)
            let added = try await admin.post("/admin/api/apis", json: body)
            #expect(added.status == 201, "\(added.text)")
            #expect(try added.json(AdminAPI.self).scopes == ["orders:read"])
            #expect(try await admin.post("/admin/api/apis", json: body).status == 400, "the identifier is taken")

            for (bad, field) in [
                (#"{"identifier": "https://x.example#f"}"#, "identifier"), (#"{"identifier": "https://x.example", "scopes": ["openid"]}"#, "scopes"),
                (#"{"identifier": "https://x.example", "name": ""}"#, "name"), (#"{"identifier": "ftp://x.example"}"#, "identifier"),
            ] {
                let refused = try await admin.post("/admin/api/apis", json: bad)
                #expect(refused.status == 400 && (try? refused.json(APIError.self))?.errorDetails?.first?.field == field, "\(bad): \(refused.text)")
            }

            let listed = try await auditor.get("/admin/api/apis")
            #expect(try listed.json(AdminAPIList.self).apis.map(\.identifier) == [shop])
            #expect(try await helpdesk.get("/admin/api/apis").status == 403)

            let changed = try await admin.post(path, json: #"{"scopes": ["orders:read", "orders:write"]}"#)
            #expect(changed.status == 200, "\(changed.text)")
            #expect(try changed.json(AdminAPI.self).scopes == ["orders:read", "orders:write"])
            #expect(try changed.json(AdminAPI.self).name == "Shop", "absent members stay")

            // A client names it; an unregistered API is refused with the field.
            let unknown = try await admin.post(
                "/admin/api/clients/\(Fixtures.backend)", json: #"{"resources": ["https://nowhere.example.com"]}"#)
            #expect(unknown.status == 400 && (try? unknown.json(APIError.self))?.errorDetails?.first?.field == "resources", "\(unknown.text)")
            let badDefault = try await admin.post(
                "/admin/api/clients/\(Fixtures.backend)", json: #"{"resources": ["\#(shop)"], "default_resource": "https://other.example"}"#)
            #expect(badDefault.status == 400 && badDefault.text.contains("default_resource"), "\(badDefault.text)")
            let named = try await admin.post(
                "/admin/api/clients/\(Fixtures.backend)", json: #"{"resources": ["\#(shop)"], "default_resource": "\#(shop)"}"#)
            #expect(named.status == 200, "\(named.text)")
            #expect(try named.json(AdminClient.self).defaultResource == shop)
            let token = try await server.client().postForm(
                "/token", ["grant_type": "client_credentials"], headers: HTTPTestClient.basic(Fixtures.backend, Fixtures.backendSecret))
            let claims = JWTParts.payload(try token.json(TokenResponse.self).accessToken)
            #expect(claims["aud"] as? String == shop, "the default API, at the next token request")
            #expect(claims["scope"] as? String == "orders:read orders:write")

            #expect(try await admin.delete(path).status == 204)
            #expect(try await admin.delete(path).status == 404)
            #expect(try await admin.post(path, json: "{}").status == 404)
            // Removed: the client's token is the issuer's again.
            let after = try await server.client().postForm(
                "/token", ["grant_type": "client_credentials"], headers: HTTPTestClient.basic(Fixtures.backend, Fixtures.backendSecret))
            #expect(JWTParts.payload(try after.json(TokenResponse.self).accessToken)["aud"] as? String == server.issuer)
        }
    }
}

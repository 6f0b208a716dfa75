import Foundation
import SesameProtocol
import SesameTesting
import StoreTesting
import Testing
@testable import SesameServer

/// Retiring one signing key and a client's device-PIN policy through the admin API (issue #47):
/// a retired key stops signing but its tokens keep working until they expire; a key removed at
/// once (compromised) fails every token it signed, a new key signs in its place; a PIN policy
/// change is what the SDK reads next, each bound is checked and named.
@Suite("Admin API: key retirement, PIN policy")
struct AdminKeyRetirementTests {
    @Test("a retired key stops signing, its tokens still verify; removed at once, its tokens fail and a new key signs")
    func retirement() async throws {
        try await withTestServer { server in
            let admin = try await AdminOperator.signIn(server, username: "boss", role: .admin)
            let helpdesk = try await AdminOperator.signIn(server, username: "desk", role: .helpdesk)
            let kid = try Self.kid(of: admin.accessToken)
            let keys = try (try await admin.get("/admin/api/keys")).json(AdminSigningKeyList.self).keys
            let algorithm = try #require(keys.first { $0.kid == kid }).algorithm

            #expect(try await helpdesk.post("/admin/api/keys/\(kid)/retire", json: "{}").status == 403)
            #expect(try await admin.post("/admin/api/keys/no-such-kid/retire", json: "{}").status == 404)
            for body in ["[]", #"{"immediately": "yes"}"#, #"{"immediately": 1e30}"#, "not json"] {
                #expect(try await admin.post("/admin/api/keys/\(kid)/retire", json: body).status == 400, "\(body)")
            }
            server.clock.advance(by: AdminActor.recentSignIn + 60)
            #expect(try await admin.post("/admin/api/keys/\(kid)/retire", json: "{}").status == 401, "needs a recent sign-in")
            server.clock.advance(by: -(AdminActor.recentSignIn + 60))

            let retired = try await admin.post("/admin/api/keys/\(kid)/retire", json: "{}")
            #expect(retired.status == 200, "\(retired.text)")
            let after = try retired.json(AdminSigningKeyList.self).keys
            let old = try #require(after.first { $0.kid == kid })
            #expect(old.retiredAt != nil && (old.expiresAt ?? 0) > Int(server.clock.now().timeIntervalSince1970))
            let successor = try #require(after.first { $0.algorithm == algorithm && $0.kid != kid && $0.retiredAt == nil })
            #expect(try await admin.get("/admin/api/keys").status == 200, "a token of the retired key still verifies")
            #expect(try await server.client().get("/jwks").text.contains(kid), "still published")

            let second = try await AdminOperator.signIn(server, username: "boss2", role: .admin)
            #expect(try Self.kid(of: second.accessToken) == successor.kid, "new tokens are signed by the successor")
            let removed = try await second.post("/admin/api/keys/\(successor.kid)/retire", json: #"{"immediately": true}"#)
            #expect(removed.status == 200, "\(removed.text)")
            #expect(try await second.get("/admin/api/keys").status == 401, "a token of a removed key fails at once")
            #expect(!(try await server.client().get("/jwks")).text.contains(successor.kid))

            let third = try await AdminOperator.signIn(server, username: "boss3", role: .admin)
            let now = try (try await third.get("/admin/api/keys")).json(AdminSigningKeyList.self).keys
            #expect(!now.contains { $0.kid == successor.kid })
            #expect(now.contains { $0.algorithm == algorithm && $0.retiredAt == nil }, "a key of the algorithm signs again")
            await server.running.audit.flush()
            let records = try await server.store.auditRecords(AuditQuery(events: [AuditEvent.keyRetired.rawValue], limit: 10))
            #expect(records.count == 2 && records.contains { $0.detail["immediately"] == "true" && $0.detail["kid"] == successor.kid })
        }
    }

    @Test("a client's PIN policy is set, read by the SDK's endpoint, bounded, audited by name and put back to the defaults")
    func pinPolicy() async throws {
        try await withTestServer { server in
            let admin = try await AdminOperator.signIn(server, username: "boss", role: .admin)
            let helpdesk = try await AdminOperator.signIn(server, username: "desk", role: .helpdesk)
            let path = "/admin/api/clients/\(Fixtures.nativeApp)"
            #expect(try (try await admin.get(path)).json(AdminClient.self).pinPolicy == PINPolicy())

            let change = #"{"pin_policy": {"minimum_length": 6, "maximum_attempts": 5, "blacklist": ["314159"]}}"#
            #expect(try await helpdesk.post(path, json: change).status == 403)
            let changed = try await admin.post(path, json: change)
            #expect(changed.status == 200, "\(changed.text)")
            let policy = try #require(try changed.json(AdminClient.self).pinPolicy)
            #expect(policy.minimumLength == 6 && policy.maximumAttempts == 5 && policy.blacklist.contains("314159"))
            #expect(policy.blacklist.contains(PINPolicy.commonPINs[0]), "the built-in list stays")
            let published = try await server.client().get("/api/pin/policy", query: ["client_id": Fixtures.nativeApp])
            #expect(try published.json(PINPolicy.self) == policy, "the SDK reads the new policy")

            for (body, field) in [
                (#"{"pin_policy": {"minimum_length": 3}}"#, "pin_policy.minimum_length"),
                (#"{"pin_policy": {"maximum_attempts": 11}}"#, "pin_policy.maximum_attempts"),
                (#"{"pin_policy": {"maximum_repeated_digits": 0}}"#, "pin_policy.maximum_repeated_digits"),
                (#"{"pin_policy": {"blacklist": ["12a45"]}}"#, "pin_policy.blacklist"),
            ] {
                let refused = try await admin.post(path, json: body)
                #expect(refused.status == 400 && (try? refused.json(APIError.self).errorDetails?.first?.field) == field, "\(refused.text)")
            }
            #expect(try await admin.post(path, json: #"{"pin_policy": {"maximum_attempts": 1e30}}"#).status == 400)
            #expect(try (try await admin.get(path)).json(AdminClient.self).pinPolicy == policy, "a refused change loses nothing")

            let reset = try await admin.post(path, json: #"{"pin_policy": {"restore_defaults": true}}"#)
            #expect(try reset.json(AdminClient.self).pinPolicy == PINPolicy())
            #expect(try await server.store.pinPolicy(clientID: Fixtures.nativeApp) == nil)
            await server.running.audit.flush()
            let records = try await server.store.auditRecords(AuditQuery(events: [AuditEvent.clientUpdated.rawValue], limit: 10))
            #expect(records.contains { $0.detail["changed"] == "pin_policy.blacklist pin_policy.maximum_attempts pin_policy.minimum_length" })
            #expect(!records.contains { $0.detail.values.contains { $0.contains("314159") } }, "names, never values")
        }
    }

    /// The `kid` in a JWT's header.
    static func kid(of token: String) throws -> String {
        let header = try #require(token.split(separator: ".").first)
        var text = String(header).replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while text.count % 4 != 0 { text += "=" }
        let object = try JSONSerialization.jsonObject(with: try #require(Data(base64Encoded: text))) as? [String: Any]
        return try #require(object?["kid"] as? String)
    }
}

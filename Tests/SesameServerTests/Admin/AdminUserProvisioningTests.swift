import Foundation
import SesameProtocol
import SesameTesting
import Testing
@testable import SesameServer

/// Accounts an operator makes and edits over the admin API (issue #47): an invited user gets a
/// password-reset mail and sets a password with it; a created user with a password signs in;
/// a profile edit is checked and unique; an operator never sets a password; mails on request.
@Suite("Admin API: creating and editing users")
struct AdminUserProvisioningTests {
    @Test("create (invited or with a password), edit, send mails; each refusal names the field")
    func provisioning() async throws {
        try await withTestServer { server in
            let desk = try await AdminOperator.signIn(server, username: "desk", role: .helpdesk)
            let auditor = try await AdminOperator.signIn(server, username: "reader", role: .auditor)
            let invite = #"{"username": "newbie", "email": "Newbie@Example.com", "name": "New Bie"}"#
            #expect(try await auditor.post("/admin/api/users", json: invite).status == 403)
            let created = try await desk.post("/admin/api/users", json: invite)
            #expect(created.status == 201, "\(created.text)")
            let detail = try created.json(AdminUserDetail.self)
            #expect(detail.user.username == "newbie" && detail.user.email == "newbie@example.com" && !detail.hasPassword)
            let mails = try await server.mfaOutbox.messages(to: "newbie@example.com")
            #expect(mails.last?.purpose == "password_reset", "the invitation is a password-reset code")

            let taken = try await desk.post("/admin/api/users", json: #"{"username": "newbie", "email": "other@example.com"}"#)
            #expect(taken.status == 400 && (try? taken.json(APIError.self))?.errorDetails?.first?.field == "username", "\(taken.text)")
            let badEmail = try await desk.post("/admin/api/users", json: #"{"username": "x1", "email": "not an email"}"#)
            #expect(badEmail.status == 400 && (try? badEmail.json(APIError.self))?.errorDetails?.first?.field == "email")
            let weak = try await desk.post("/admin/api/users", json: #"{"username": "x2", "email": "x2@example.com", "password": "short"}"#)
            #expect(weak.status == 400 && (try? weak.json(APIError.self))?.errorDetails?.first?.field == "password")
            let withPassword = try await desk.post(
                "/admin/api/users", json: #"{"username": "ready", "email": "ready@example.com", "email_verified": true, "password": "a long enough passphrase"}"#)
            #expect(try withPassword.status == 201 && withPassword.json(AdminUserDetail.self).hasPassword)

            let id = detail.user.id
            let edited = try await desk.post("/admin/api/users/\(id)", json: #"{"name": "Newly Named", "email": "renamed@example.com"}"#)
            #expect(edited.status == 200, "\(edited.text)")
            let after = try edited.json(AdminUserDetail.self)
            #expect(after.user.name == "Newly Named" && after.user.email == "renamed@example.com" && !after.user.emailVerified)
            let clash = try await desk.post("/admin/api/users/\(id)", json: #"{"email": "ready@example.com"}"#)
            #expect(clash.status == 400, "\(clash.text)")
            let password = try await desk.post("/admin/api/users/\(id)", json: #"{"password": "an operator's choice"}"#)
            #expect(password.status == 400 && password.text.contains("password-reset"))

            #expect(try await desk.post("/admin/api/users/\(id)/verify-email").status == 204)
            #expect(try await server.mfaOutbox.messages(to: "renamed@example.com").last?.purpose == "email_verification")
            #expect(try await desk.post("/admin/api/users/\(id)/password-reset").status == 204)
            #expect(try await server.mfaOutbox.messages(to: "renamed@example.com").last?.purpose == "password_reset")
            let readyID = try withPassword.json(AdminUserDetail.self).user.id
            #expect(try await desk.post("/admin/api/users/\(readyID)/verify-email").status == 400, "verified already")
            #expect(try await desk.post("/admin/api/users/nobody/password-reset").status == 404)
        }
    }
}

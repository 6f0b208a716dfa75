import Foundation
import SesameProtocol
import SesameTesting
import Testing
@testable import SesameServer

/// What a help desk removes from an account over the admin API (issue #47): a second factor, a
/// passkey, a PIN device (its tokens end), the whole account (a recent sign-in, never oneself);
/// an auditor removes nothing; each removal is audited with the operator.
@Suite("Admin API: removing factors, passkeys, PIN devices and accounts")
struct AdminUserRemovalTests {
    @Test("a factor, a passkey and a PIN registration are removed one by one; an auditor is refused; unknown ones are 404")
    func credentials() async throws {
        try await withTestServer { server in
            let desk = try await AdminOperator.signIn(server, username: "desk", role: .helpdesk)
            let auditor = try await AdminOperator.signIn(server, username: "reader", role: .auditor)
            let user = try await server.addMFATestUser("lost-phone")
            let now = Date()
            try await server.store.saveMFAEnrollment(
                MFAEnrollmentRecord(userID: user.id, method: .sms, confirmed: true, phoneNumber: "+15555550100", createdAt: now))
            try await server.store.insertPasskey(
                PasskeyRecord(
                    credentialID: "cred-1", userID: user.id, publicKey: Data([1, 2, 3]), signCount: 0, uvInitialized: true,
                    backupEligible: false, backupState: false, transports: [], aaguid: "", attestationFormat: "none", name: "Key",
                    createdAt: now))
            let pin = PINRegistrationRecord(
                userID: user.id, clientID: Fixtures.nativeApp, label: "Phone", publicKey: Data([4, 5, 6]), createdAt: now)
            try await server.store.insertPINRegistration(pin)

            let base = "/admin/api/users/\(user.id)"
            #expect(try await auditor.delete(base + "/factors/sms").status == 403)
            #expect(try await desk.delete(base + "/factors/carrier-pigeon").status == 400)
            #expect(try await desk.delete(base + "/factors/totp").status == 404, "not enrolled")
            #expect(try await desk.delete(base + "/factors/sms").status == 204)
            #expect(try await server.store.mfaEnrollments(userID: user.id).isEmpty)
            #expect(try await desk.delete(base + "/passkeys/cred-1").status == 204)
            #expect(try await desk.delete(base + "/passkeys/cred-1").status == 404)
            #expect(try await server.store.passkeys(userID: user.id).isEmpty)
            #expect(try await desk.delete(base + "/pin-registrations/\(pin.id)").status == 204)
            #expect(try await server.store.pinRegistration(id: pin.id) == nil)
            #expect(try await desk.delete("/admin/api/users/nobody/passkeys/x").status == 404)

            var records: [AuditRecord] = []
            for _ in 0..<100 where records.count < 3 {
                records = try await server.store.auditRecords(AuditQuery(userID: user.id, events: ["admin.user_updated"]))
                if records.count < 3 { try await Task.sleep(for: .milliseconds(50)) }
            }
            #expect(Set(records.compactMap { $0.detail["removed"] }) == ["factor sms", "passkey", "pin_registration"])
            #expect(records.allSatisfy { $0.detail["actor"] == desk.user.id })
        }
    }

    @Test("an account is deleted with everything of it; its refresh token fails; an operator cannot delete themselves")
    func deletion() async throws {
        try await withTestServer { server in
            let admin = try await AdminOperator.signIn(server, username: "boss", role: .admin)
            let user = try await server.addMFATestUser("leaving")
            try await server.store.setAdminRole(.auditor, userID: user.id, grantedBy: nil, at: Date())
            let own = try await admin.delete("/admin/api/users/\(admin.user.id)")
            #expect(own.status == 400)
            let deleted = try await admin.delete("/admin/api/users/\(user.id)")
            #expect(deleted.status == 204, "\(deleted.text)")
            #expect(try await server.store.user(id: user.id) == nil)
            #expect(try await server.store.adminRole(userID: user.id) == nil)
            #expect(try await server.store.searchUsers(UserSearch(prefix: "leaving")).users.isEmpty)
            #expect(try await admin.delete("/admin/api/users/\(user.id)").status == 404)
        }
    }
}

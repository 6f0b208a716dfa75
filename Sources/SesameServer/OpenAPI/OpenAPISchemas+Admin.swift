import Foundation
import SesameProtocol

extension OpenAPISchemas {
    /// The admin API's wire types (issue #47), inferred from a full and a minimal value of each.
    static func adminTypes(into catalog: inout Catalog) {
        let full = AdminUserSummary(
            id: "u", username: "alice", email: "alice@example.com", emailVerified: true, name: "Alice", createdAt: 1,
            disabledAt: 2, role: "helpdesk", matchedBy: "username")
        let minimal = AdminUserSummary(
            id: "u", username: "alice", email: "alice@example.com", emailVerified: false, name: nil, createdAt: 1,
            disabledAt: nil, role: nil, matchedBy: nil)
        catalog.add("AdminUserSummary", full, minimal, "A user as the admin API lists them; times are seconds since 1970.")
        catalog.add(
            "AdminUserPage", AdminUserPage(users: [full], nextCursor: "c"), AdminUserPage(users: [], nextCursor: nil),
            "A page of users; next_cursor is absent on the last page.")
        let pin = AdminPINRegistration(id: "p", clientID: "app", label: "Phone", createdAt: 1, lastUsedAt: 2, failures: 0)
        let session = AdminSession(id: "s", clientID: "app", lastUsedAt: 1)
        let passkey = Passkey(
            id: "k", name: "Key", createdAt: 1, lastUsedAt: 2, backupEligible: true, backedUp: true, keyKind: "swk", locked: false)
        catalog.add(
            "AdminUserDetail",
            AdminUserDetail(
                user: full, phoneNumber: "+4712345678", phoneNumberVerified: true, updatedAt: 1, lastSignInAt: 2, hasPassword: true,
                factors: [MFAEnrollmentStatus(method: .sms, confirmed: true, destination: "+47******78")], passkeys: [passkey],
                pinRegistrations: [pin], devices: [Device(deviceID: "d", name: "Watch", type: "watchos", createdAt: 1)],
                federatedIdentities: [LinkedIdentity(provider: "google", subject: "g", email: "a@gmail.com", linkedAt: 1)],
                sessions: [session]),
            AdminUserDetail(
                user: minimal, phoneNumber: nil, phoneNumberVerified: nil, updatedAt: 1, lastSignInAt: nil, hasPassword: false,
                factors: [], passkeys: [], pinRegistrations: [], devices: [], federatedIdentities: [], sessions: []),
            "Everything the help desk sees of a user; never a secret.")
        catalog.add("AdminPINRegistration", pin, AdminPINRegistration(id: "p", clientID: "app", label: nil, createdAt: 1, lastUsedAt: nil, failures: 0), "A PIN device.")
        catalog.add("AdminSession", session, session, "A live session (one refresh-token family).")
        catalog.add(
            "AdminUserChange", AdminUserChange(user: full, sessionsEnded: 2), AdminUserChange(user: minimal, sessionsEnded: 0),
            "The user after an operator's change, and how many sessions it ended.")
        catalog.add(
            "AdminRoleUpdate", AdminRoleUpdate(role: "helpdesk"), AdminRoleUpdate(role: nil),
            "The role to grant (admin, helpdesk, auditor), or null to take it away.")
    }
}

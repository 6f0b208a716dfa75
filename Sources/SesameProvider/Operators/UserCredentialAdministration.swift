import Foundation
import SesameProtocol
import SesameStore

// What a help desk removes from an account (issue #47): a second factor, a passkey, a PIN
// registration (a lost phone), or the whole account. Each is audited with the operator.
extension UserAdministration {
    /// Removes an enrolled second factor (`email`, `sms`, `totp`); the user signs in with their
    /// other factors, or enrols again.
    package func removeFactor(
        userID: String, method name: String, by actor: AdminActor, origin: RequestOrigin?
    ) async throws {
        try actor.require(.manageUsers)
        let user = try await existing(userID)
        guard let method = MFAMethod(rawValue: name) else {
            throw ProviderFailure(.invalidRequest, "method is one of \(MFAMethod.allCases.map(\.rawValue).joined(separator: ", ")).")
        }
        guard try await store.removeMFAEnrollment(userID: user.id, method: method) else {
            throw ProviderFailure(.notFound, "\(user.username) has no \(method.rawValue) factor enrolled.")
        }
        audit.record(.userUpdated, origin: origin, userID: user.id, detail: actor.auditDetail.merging(["removed": "factor " + method.rawValue]) { $1 })
    }

    /// Removes a passkey; it signs in no more.
    package func removePasskey(
        userID: String, credentialID: String, by actor: AdminActor, origin: RequestOrigin?
    ) async throws {
        try actor.require(.manageUsers)
        let user = try await existing(userID)
        guard try await store.removePasskey(credentialID: credentialID, userID: user.id) else {
            throw ProviderFailure(.notFound, "\(user.username) has no passkey \(credentialID.prefix(100)); list them with GET /admin/api/users/{id}.")
        }
        audit.record(.userUpdated, origin: origin, userID: user.id, detail: actor.auditDetail.merging(["removed": "passkey"]) { $1 })
    }

    /// Removes a PIN registration (a lost or stolen device) and ends every token issued through
    /// it, in every process.
    package func removePINRegistration(
        userID: String, registrationID: String, by actor: AdminActor, origin: RequestOrigin?
    ) async throws {
        try actor.require(.manageUsers)
        let user = try await existing(userID)
        guard let registration = try await store.pinRegistration(id: registrationID), registration.userID == user.id else {
            throw ProviderFailure(.notFound, "\(user.username) has no PIN registration \(registrationID.prefix(100)).")
        }
        _ = try await store.removePINRegistration(id: registration.id)
        try await store.revokeRefreshTokens(sessionID: registration.sessionID, now: now(), reason: .administrator)
        audit.record(
            .userUpdated, origin: origin, clientID: registration.clientID, userID: user.id,
            detail: actor.auditDetail.merging(["removed": "pin_registration"]) { $1 })
    }

    /// Deletes the account as its owner's own deletion does: its tokens and sessions end at once,
    /// and its second factors, devices, PIN registrations, passkeys, linked identities, codes,
    /// role and search terms go with it. The audit records about it stay (they name its id).
    /// Needs a sign-in of the last 5 minutes; no operator deletes themselves.
    package func delete(userID: String, by actor: AdminActor, origin: RequestOrigin?) async throws {
        try actor.require(.manageUsers)
        try actor.requireRecentSignIn(now: now())
        let user = try await existing(userID)
        guard user.id != actor.userID else {
            throw ProviderFailure(.invalidRequest, "An operator cannot delete their own account here; another administrator can.")
        }
        for registration in try await store.pinRegistrations(userID: user.id) {
            _ = try await store.removePINRegistration(id: registration.id)
        }
        try await store.removeMFAData(userID: user.id)
        try await store.removeDevices(userID: user.id)
        try await store.removeVerificationCodes(userID: user.id)
        try await store.revokeAllTokens(userID: user.id, now: now(), reason: .administrator)
        _ = try await store.removeUser(id: user.id)
        audit.record(.userRemoved, origin: origin, userID: user.id, detail: actor.auditDetail.merging(["username": user.username]) { $1 })
    }
}

import Foundation
import SesameProtocol
import SesameStore

/// The users part of the admin API (issue #47), without HTTP: search, the help desk's view of
/// one user, and the changes an operator makes, each checked against the operator's role
/// (``AdminActor/require(_:)``) and written to the audit log with who made it. Changes take
/// effect in every process at once: they are in the shared store, and what a process caches
/// about a user (nothing but the sign-in throttle, which is cleared in the store) is read again.
package struct UserAdministration: Sendable {
    package let store: any ProviderStore
    package let audit: AuditLog
    package let now: @Sendable () -> Date

    package init(store: any ProviderStore, audit: AuditLog, now: @escaping @Sendable () -> Date) {
        self.store = store
        self.audit = audit
        self.now = now
    }

    // MARK: Reading

    /// A page of the users whose username, email, name or subject starts with `prefix`.
    package func search(_ search: UserSearch, by actor: AdminActor) async throws -> AdminUserPage {
        try actor.require(.readUsers)
        let page = try await store.searchUsers(search)
        var users: [AdminUserSummary] = []
        for user in page.users {
            users.append(try await summary(user, matchedBy: page.matchedBy[user.id]))
        }
        return AdminUserPage(users: users, nextCursor: page.next.map(Self.encode))
    }

    /// Everything about one user a help desk needs, and no secret.
    package func detail(userID: String, by actor: AdminActor) async throws -> AdminUserDetail {
        try actor.require(.readUsers)
        let user = try await existing(userID)
        let lastSignIn = try await store.auditRecords(
            AuditQuery(userID: user.id, events: [AuditEvent.signInSucceeded.rawValue], limit: 1)
        ).last?.time
        let factors = try await store.mfaEnrollments(userID: user.id).map { MFAEnrollmentStatus($0, user: user) }
        let passkeys = try await store.passkeys(userID: user.id).map(Passkeys.descriptor)
        let pins = try await store.pinRegistrations(userID: user.id).map {
            AdminPINRegistration(
                id: $0.id, clientID: $0.clientID, label: $0.label, createdAt: Self.seconds($0.createdAt),
                lastUsedAt: $0.lastUsedAt.map(Self.seconds), failures: $0.failures)
        }
        let identities = try await store.federatedIdentities(userID: user.id).map {
            LinkedIdentity(provider: $0.providerID, subject: $0.subject, email: $0.email, linkedAt: Self.seconds($0.linkedAt))
        }
        let sessions = try await store.liveRefreshFamilies(userID: user.id, now: now())
            .sorted { $0.lastUsed > $1.lastUsed }
            .map { AdminSession(id: $0.familyID, clientID: $0.clientID, lastUsedAt: Self.seconds($0.lastUsed)) }
        return AdminUserDetail(
            user: try await summary(user, matchedBy: nil), phoneNumber: user.claims.phoneNumber,
            phoneNumberVerified: user.claims.phoneNumberVerified, updatedAt: Self.seconds(user.updatedAt),
            lastSignInAt: lastSignIn.map(Self.seconds), hasPassword: user.passwordHash != nil, factors: factors,
            passkeys: passkeys, pinRegistrations: pins, devices: try await store.devices(userID: user.id),
            federatedIdentities: identities, sessions: sessions)
    }

    // MARK: Changes

    /// Disables the account and ends every session of it (refresh tokens, browser sessions,
    /// device sessions) at once: its refresh tokens fail with `invalid_grant` in every process,
    /// and no sign-in succeeds until it is enabled. An operator cannot disable themselves.
    package func disable(userID: String, by actor: AdminActor, origin: RequestOrigin?) async throws -> AdminUserChange {
        try actor.require(.manageUsers)
        var user = try await existing(userID)
        guard user.id != actor.userID else {
            throw ProviderFailure(.invalidRequest, "Operators cannot disable their own account; ask another administrator.")
        }
        let at = now()
        // First the flag, then the revocation: a token family stored while this runs is either
        // revoked here or refused by the flag (GrantTokens checks it after storing one).
        if !user.isDisabled {
            try await store.setUserDisabled(id: user.id, at: at)
            user.disabledAt = at
        }
        let ended = try await endAllSessions(of: user.id, at: at)
        audit.record(
            .userDisabled, origin: origin, userID: user.id,
            detail: ["actor": actor.userID, "role": actor.role.rawValue, "sessions_ended": "\(ended)"])
        return AdminUserChange(user: try await summary(user, matchedBy: nil), sessionsEnded: ended)
    }

    /// Enables a disabled account; its old sessions stay ended.
    package func enable(userID: String, by actor: AdminActor, origin: RequestOrigin?) async throws -> AdminUserChange {
        try actor.require(.manageUsers)
        var user = try await existing(userID)
        if user.isDisabled {
            try await store.setUserDisabled(id: user.id, at: nil)
            user.disabledAt = nil
        }
        audit.record(.userEnabled, origin: origin, userID: user.id, detail: ["actor": actor.userID, "role": actor.role.rawValue])
        return AdminUserChange(user: try await summary(user, matchedBy: nil), sessionsEnded: 0)
    }

    /// Clears the password-guessing lockouts of the account in every process (the counters
    /// of its username, its email and the account itself).
    package func unlock(userID: String, by actor: AdminActor, origin: RequestOrigin?) async throws -> AdminUserChange {
        try actor.require(.manageUsers)
        let user = try await existing(userID)
        for key in [LoginThrottle.loginKey(user.username), LoginThrottle.loginKey(user.email), LoginThrottle.accountKey(user.id)] {
            try await store.clearThrottle(key: LoginThrottle.sharedName(key))
        }
        audit.record(.userUnlocked, origin: origin, userID: user.id, detail: ["actor": actor.userID, "role": actor.role.rawValue])
        return AdminUserChange(user: try await summary(user, matchedBy: nil), sessionsEnded: 0)
    }

    /// Ends one session (a refresh-token family, `sessionID`) or, with `nil`, all of them.
    package func endSessions(
        userID: String, sessionID: String?, by actor: AdminActor, origin: RequestOrigin?
    ) async throws -> AdminUserChange {
        try actor.require(.manageUsers)
        let user = try await existing(userID)
        let at = now()
        let ended: Int
        if let sessionID {
            let live = try await store.liveRefreshFamilies(userID: user.id, now: at)
            guard live.contains(where: { $0.familyID == sessionID }) else {
                throw ProviderFailure(.notFound, "The user has no live session \(sessionID); list them with GET /admin/api/users/{id}.")
            }
            try await store.revokeRefreshFamily(sessionID, now: at, reason: .administrator)
            ended = 1
        } else {
            ended = try await endAllSessions(of: user.id, at: at)
        }
        audit.record(
            .userSessionsEnded, origin: origin, userID: user.id,
            detail: ["actor": actor.userID, "role": actor.role.rawValue, "sessions_ended": "\(ended)", "scope": sessionID == nil ? "all" : "one"])
        return AdminUserChange(user: try await summary(user, matchedBy: nil), sessionsEnded: ended)
    }

    /// Grants `role` to the user, or takes their role away (`nil`). Only administrators may;
    /// an administrator cannot take their own role away (someone must remain).
    package func setRole(
        _ role: AdminRole?, userID: String, by actor: AdminActor, origin: RequestOrigin?
    ) async throws -> AdminUserSummary {
        try actor.require(.manageRoles)
        let user = try await existing(userID)
        guard user.id != actor.userID || role == .admin else {
            throw ProviderFailure(.invalidRequest, "Administrators cannot take their own role away; ask another administrator.")
        }
        try await store.setAdminRole(role, userID: user.id, grantedBy: actor.userID, at: now())
        audit.record(
            .roleChanged, origin: origin, userID: user.id,
            detail: ["actor": actor.userID, "role": actor.role.rawValue, "new_role": role?.rawValue ?? "none"])
        return try await summary(user, matchedBy: nil)
    }

    // MARK: Parts

    private func endAllSessions(of userID: String, at: Date) async throws -> Int {
        let live = try await store.liveRefreshFamilies(userID: userID, now: at).count
        try await store.revokeAllTokens(
            userID: userID, now: at, keepingFamily: nil, keepingSession: nil, reason: .administrator)
        return live
    }

    func existing(_ userID: String) async throws -> UserRecord {
        guard let user = try await store.user(id: userID) else {
            throw ProviderFailure(.userNotFound, "No user has the id \(userID); search with GET /admin/api/users?q=...")
        }
        return user
    }

    private func summary(_ user: UserRecord, matchedBy: String?) async throws -> AdminUserSummary {
        AdminUserSummary(
            id: user.id, username: user.username, email: user.email, emailVerified: user.emailVerified,
            name: user.claims.name, createdAt: Self.seconds(user.createdAt), disabledAt: user.disabledAt.map(Self.seconds),
            role: try await store.adminRole(userID: user.id)?.rawValue, matchedBy: matchedBy)
    }

    private static func seconds(_ date: Date) -> Int { Int(date.timeIntervalSince1970) }

    // MARK: Cursors

    /// A search cursor as the API hands it out: base64url JSON, opaque to callers.
    package static func encode(_ cursor: UserSearchCursor) -> String {
        Base64URL.encode((try? JSONEncoder().encode(cursor)) ?? Data())
    }

    /// A cursor from a request; `nil` for anything that is not one this server made.
    package static func decodeCursor(_ text: String) -> UserSearchCursor? {
        guard text.count <= 2048, let data = Base64URL.decode(text) else { return nil }
        return try? JSONDecoder().decode(UserSearchCursor.self, from: data)
    }
}

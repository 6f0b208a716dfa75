import Foundation
import SesameProtocol
import SesameStore

/// Accounts an operator makes and edits (issue #47), without HTTP: create a user (with a first
/// password, or invited by a password-reset mail to choose one), change a profile's username,
/// email, verification and name (checked as `sesame user add` checks them, unique as at
/// sign-up), and send a password-reset or verification mail. Every change is audited with the
/// operator; never a password or code.
package struct UserProvisioning: Sendable {
    package let store: any ProviderStore
    package let credentials: CredentialVerifier
    package let codes: VerificationCodes
    package let users: UserAdministration
    package let audit: AuditLog
    package let now: @Sendable () -> Date

    package init(
        store: any ProviderStore, credentials: CredentialVerifier, codes: VerificationCodes, users: UserAdministration,
        audit: AuditLog, now: @escaping @Sendable () -> Date
    ) {
        self.store = store
        self.credentials = credentials
        self.codes = codes
        self.users = users
        self.audit = audit
        self.now = now
    }

    /// Creates a user; without a password, emails a password-reset code (an invitation).
    package func create(_ profile: AdminUserProfile, by actor: AdminActor, origin: RequestOrigin?) async throws -> AdminUserDetail {
        try actor.require(.manageUsers)
        guard let username = profile.username, let email = profile.email else {
            throw Self.invalid(profile.username == nil ? "username" : "email", "is required")
        }
        try Self.check { try UserValidation.checkUsername(username) }
        try Self.check { try UserValidation.checkEmail(email) }
        if let password = profile.password {
            try Self.check { try UserValidation.checkPassword(password, email: email, username: username) }
        }
        let id = SecureRandom.uuid()
        var claims = StandardClaims(sub: id)
        if let name = profile.name, !name.isEmpty { claims.name = String(name.prefix(200)) }
        let at = now()
        let user = UserRecord(
            id: id, username: username, email: email, emailVerified: profile.emailVerified ?? false,
            passwordHash: try await profile.password.asyncMap { try await credentials.hashPassword($0) }, claims: claims,
            createdAt: at, updatedAt: at)
        do {
            try await store.createUser(user)
        } catch StoreError.conflict(let field) {
            throw ProviderFailure(.validationFailed, "\(field): another account has it", details: [FieldError(field: field, message: "is taken", code: "taken")])
        }
        audit.record(.userAdded, origin: origin, userID: id, detail: actor.auditDetail.merging(["invited": profile.password == nil ? "true" : "false"]) { $1 })
        if profile.password == nil {
            try await codes.issue(.passwordReset, for: user, to: user.email, locales: [])
        }
        return try await users.detail(userID: id, by: actor)
    }

    /// Changes the profile fields given; a new email address is unverified unless said otherwise.
    package func update(
        userID: String, _ profile: AdminUserProfile, by actor: AdminActor, origin: RequestOrigin?
    ) async throws -> AdminUserDetail {
        try actor.require(.manageUsers)
        var user = try await users.existing(userID)
        guard profile.password == nil else {
            throw ProviderFailure(.invalidRequest, "An operator never sets a password; send a password-reset mail (POST /admin/api/users/{id}/password-reset).")
        }
        var changed: [String] = []
        if let username = profile.username, username.lowercased() != user.username {
            try Self.check { try UserValidation.checkUsername(username) }
            user.username = username
            changed.append("username")
        }
        if let email = profile.email, email.lowercased() != user.email {
            try Self.check { try UserValidation.checkEmail(email) }
            user.email = email
            user.emailVerified = false
            changed.append("email")
        }
        if let verified = profile.emailVerified, verified != user.emailVerified {
            user.emailVerified = verified
            changed.append("email_verified")
        }
        if let name = profile.name {
            user.claims.name = name.isEmpty ? nil : String(name.prefix(200))
            changed.append("name")
        }
        guard !changed.isEmpty else { return try await users.detail(userID: user.id, by: actor) }
        user.updatedAt = now()
        do {
            try await store.updateUser(user)
        } catch StoreError.conflict(let field) {
            throw ProviderFailure(.validationFailed, "\(field): another account has it", details: [FieldError(field: field, message: "is taken", code: "taken")])
        }
        audit.record(.userUpdated, origin: origin, userID: user.id, detail: actor.auditDetail.merging(["changed": changed.joined(separator: " ")]) { $1 })
        return try await users.detail(userID: user.id, by: actor)
    }

    /// Emails the user a password-reset code (``VerificationPurpose/passwordReset``) or, for an
    /// unverified address, a verification code.
    package func sendMail(
        _ purpose: VerificationPurpose, userID: String, by actor: AdminActor, origin: RequestOrigin?
    ) async throws {
        try actor.require(.manageUsers)
        let user = try await users.existing(userID)
        if purpose == .emailVerification, user.emailVerified {
            throw ProviderFailure(.invalidRequest, "\(user.username)'s email address is verified already.")
        }
        try await codes.issue(purpose, for: user, to: user.email, locales: user.claims.locale.map { [$0] } ?? [])
        audit.record(.userUpdated, origin: origin, userID: user.id, detail: actor.auditDetail.merging(["mail": purpose.rawValue]) { $1 })
    }

    /// Runs a ``UserValidation`` check; its issue becomes `validation_failed` naming the field.
    private static func check(_ body: () throws -> Void) throws {
        do {
            try body()
        } catch let issue as ValidationIssue {
            throw invalid(issue.field, issue.reason)
        }
    }

    private static func invalid(_ field: String, _ reason: String) -> ProviderFailure {
        ProviderFailure(.validationFailed, "\(field): \(reason)", details: [FieldError(field: field, message: reason, code: "invalid_format")])
    }
}

extension Optional {
    fileprivate func asyncMap<T>(_ transform: (Wrapped) async throws -> T) async throws -> T? {
        guard let value = self else { return nil }
        return try await transform(value)
    }
}

import Foundation
import SesameProtocol
import SesameStore

/// The account self-service operations (sign-up, email confirmation, password reset), once,
/// for both faces that offer them: the JSON API under `/api/` (``SignUpEndpoint``,
/// ``PasswordResetEndpoint``) and the hosted pages (``HostedAccountPages``). Failures are
/// ``ProviderFailure``s with field details in the caller's language; each face renders them
/// its own way.
package struct AccountSelfService: Sendable {
    let store: any ProviderStore
    let credentials: CredentialVerifier
    let codes: VerificationCodes
    let mailQuota: MailQuota
    let now: @Sendable () -> Date

    package init(
        store: any ProviderStore, credentials: CredentialVerifier, codes: VerificationCodes, mailQuota: MailQuota,
        now: @escaping @Sendable () -> Date
    ) {
        self.store = store
        self.credentials = credentials
        self.codes = codes
        self.mailQuota = mailQuota
        self.now = now
    }

    /// What a sign-up asks for.
    package struct SignUp: Sendable {
        var email: String
        var password: String
        var username: String?
        var profile: ProfileUpdate
        /// JSON members present in the request, to refuse read-only claims (``ProfileUpdate``).
        var members: Set<String> = []

        package init(email: String, password: String, username: String?, profile: ProfileUpdate, members: Set<String> = []) {
            self.email = email
            self.password = password
            self.username = username
            self.profile = profile
            self.members = members
        }
    }

    /// Creates an unverified account and emails it an `email_verification` code. The account
    /// can sign in at once (verification is not a sign-in precondition).
    package func signUp(_ input: SignUp, validation: AccountValidation) async throws -> UserRecord {
        let email = EmailAddress.canonical(input.email)
        let username = (input.username ?? email).trimmingCharacters(in: .whitespaces).lowercased()
        var violations = AccountValidation.readOnlyMembers(in: input.members, allowing: ["email"])
        violations += [validation.email(email, field: "email")].compactMap { $0 }
        if input.username != nil {
            violations += [validation.username(username, field: "username")].compactMap { $0 }
        }
        violations += ProfileValidation.violations(of: input.profile)
        violations += validation.password(input.password, field: "password", email: email, username: username)
        if !violations.isEmpty { throw validation.failure(violations) }

        // `user(login:)` matches usernames and emails, so neither may collide with the other.
        if try await store.user(login: email) != nil { throw validation.emailTaken(field: "email") }
        if username != email, try await store.user(login: username) != nil {
            throw validation.failure([FieldViolation(field: "username", code: FieldErrorCode.taken)])
        }

        let now = now()
        var claims = ProfileValidation.apply(input.profile, to: StandardClaims(sub: ""))
        claims.updatedAt = Int(now.timeIntervalSince1970)
        let user = UserRecord(
            username: username, email: email, emailVerified: false,
            passwordHash: try await credentials.hashPassword(input.password), claims: claims,
            createdAt: now, updatedAt: now)
        do {
            try await store.createUser(user)
        } catch StoreError.conflict(let field) {
            // A concurrent sign-up won the race after the checks above.
            if field == "email" { throw validation.emailTaken(field: "email") }
            throw validation.failure([FieldViolation(field: "username", code: FieldErrorCode.taken)])
        }
        do {
            try await codes
                .issue(.emailVerification, for: user, to: email, locales: validation.locales)
        } catch {
            // Without the code the account could never be verified: undo the sign-up.
            _ = try? await store.removeUser(id: user.id)
            throw error
        }
        return user
    }

    /// Redeems an `email_verification` code and marks the address verified.
    package func confirmEmail(_ email: String, code: String, validation: AccountValidation) async throws -> UserRecord {
        let email = EmailAddress.canonical(email)
        let found = try await user(email: email).flatMap { $0.emailVerified ? nil : $0 }
        let owner = found?.id ?? VerificationCodes.standInOwner(of: email, purpose: .emailVerification)
        let record = try await codes
            .redeem(.emailVerification, userID: owner, code: code, validation: validation)
        guard var user = found, record.target == user.email else {
            throw ProviderFailure(
                .invalidVerificationCode, "The code was sent to another address; request a new code.")
        }
        user.emailVerified = true
        user.updatedAt = now()
        try await store.updateUser(user)
        return user
    }

    /// Sends a new `email_verification` code to an unverified address. Like a reset request it
    /// answers the same whether or not such an account exists (a stand-in code otherwise,
    /// ``VerificationCodes/issueStandIn(_:to:)``).
    package func resendVerification(to email: String, locales: [String]) async throws {
        let email = EmailAddress.canonical(email)
        guard let user = try await user(email: email), !user.emailVerified else {
            try await codes.issueStandIn(.emailVerification, to: email)
            return
        }
        try await quietly {
            try await codes.issue(.emailVerification, for: user, to: email, locales: locales)
        }
    }

    /// Emails a `password_reset` code when `email` belongs to an account; answers the same
    /// otherwise (a stand-in code, ``VerificationCodes/issueStandIn(_:to:)``).
    package func requestPasswordReset(_ email: String, locales: [String]) async throws {
        let email = EmailAddress.canonical(email)
        guard let user = try await user(email: email) else {
            try await codes.issueStandIn(.passwordReset, to: email)
            return
        }
        try await quietly {
            try await codes.issue(
                .passwordReset, for: user, to: user.email,
                locales: user.claims.locale.map { [$0] + locales } ?? locales)
        }
    }

    /// Sets a new password with a `password_reset` code: revokes the user's refresh tokens and
    /// browser sessions and marks the email verified (the code proved control of the address).
    /// The rules that need no account are checked before the code, so a rejected password does
    /// not use the code up; the one that names the account (the password contains the
    /// username) after the code is right and before it is used up, so that nobody without the
    /// code learns whether the account exists.
    package func resetPassword(
        _ email: String, code: String, newPassword: String, validation: AccountValidation
    ) async throws -> UserRecord {
        let email = EmailAddress.canonical(email)
        let found = try await user(email: email)
        let violations = validation.password(newPassword, field: "new_password", email: email, username: nil)
        if !violations.isEmpty { throw validation.failure(violations) }

        let owner = found?.id ?? VerificationCodes.standInOwner(of: email, purpose: .passwordReset)
        let record = try await codes.redeem(
            .passwordReset, userID: owner, code: code, validation: validation
        ) { _ in
            let named = validation.password(newPassword, field: "new_password", email: email, username: found?.username)
            if !named.isEmpty { throw validation.failure(named) }
        }
        guard var user = found, record.target == user.email else {
            throw ProviderFailure(
                .invalidVerificationCode, "The code was sent to another address; request a new code.")
        }
        let now = now()
        user.passwordHash = try await credentials.hashPassword(newPassword)
        user.emailVerified = true
        user.updatedAt = now
        try await store.updateUser(user)
        try await store.revokeAllTokens(userID: user.id, now: now, reason: .credentialsChanged)
        return user
    }

    /// Counts a request that may send account mail against its client address's quota
    /// (``MailQuota``; `address` as ``LoginThrottle`` keys it), before anything else happens, so
    /// the refusal is the same whether or not the address has an account: 429 `rate_limited`
    /// with `Retry-After`.
    package func admitMailRequest(from address: String?) async throws {
        guard let retryAfter = try await mailQuota.admitRequest(from: address) else { return }
        var failure = ProviderFailure(
            .rateLimited,
            "Too many requests that send email from this address; try again in \(retryAfter) seconds (Retry-After).")
        failure.retryAfter = retryAfter
        throw failure
    }

    /// The user whose email (not username) is `email`.
    package func user(email: String) async throws -> UserRecord? {
        guard !email.isEmpty else { return nil }
        return try await store.user(email: email)
    }

    /// Runs a send whose failure must not show (it would reveal that the account exists); the
    /// failure is already logged by ``VerificationCodes``.
    private func quietly(_ send: () async throws -> Void) async throws {
        do {
            try await send()
        } catch let error as any APIErrorRendering where error.failure.code == .temporarilyUnavailable {}
    }
}

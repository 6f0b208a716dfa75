import Foundation
import SesameProtocol
import SesameStore

/// The second-factor step of a first-party sign-in, shared by `POST /authorize-challenge` and
/// the hosted login page: creating the `auth_session` (draft-ietf-oauth-first-party-apps
/// §5.2.2), choosing a method (sending an email/SMS code), and verifying the answer.
///
/// Rules (docs/first-party-and-accounts.md): the `auth_session` is 256 random bits, stored only as a digest,
/// bound to client, user, PKCE challenge and scope; it lives 5 minutes, extended when a code is
/// sent so that an expired code can be replaced (never beyond 15 minutes in all); codes live 5
/// minutes; 5 wrong answers end it; it is deleted when a code is issued. An answer is compared
/// only after its attempt was reserved in the store, and at most 5 codes are sent, each counted
/// before it goes out (docs/first-party-and-accounts.md, "Attempt limits").
package struct AuthSessionFlow: Sendable {
    let store: any ProviderStore
    let passkeys: Passkeys
    let delivery: MFACodeDelivery
    let totp: TOTPAuthenticator
    let audit: AuditLog
    let now: @Sendable () -> Date

    package init(
        store: any ProviderStore, passkeys: Passkeys, delivery: MFACodeDelivery, totp: TOTPAuthenticator, audit: AuditLog,
        now: @escaping @Sendable () -> Date
    ) {
        self.store = store
        self.passkeys = passkeys
        self.delivery = delivery
        self.totp = totp
        self.audit = audit
        self.now = now
    }

    package static let lifetime: TimeInterval = 5 * 60
    package static let maximumLifetime: TimeInterval = 15 * 60
    package static let maxCodesSent = 5

    /// What the session is for; the fields of the future authorization code.
    package struct Binding: Sendable {
        var client: ClientRecord
        var user: UserRecord
        var scope: String
        /// Always present for `/authorize-challenge`; may be `nil` for a hosted login page
        /// request of a confidential client (RFC 9700 §2.1.1).
        var codeChallenge: String?
        var redirectURI = ""
        var nonce: String?
        var firstFactor: [String]
        var reauthentication = false
        var uiLocales: String?

        package init(
            client: ClientRecord, user: UserRecord, scope: String, codeChallenge: String?, redirectURI: String = "",
            nonce: String? = nil, firstFactor: [String], reauthentication: Bool = false, uiLocales: String? = nil
        ) {
            self.client = client
            self.user = user
            self.scope = scope
            self.codeChallenge = codeChallenge
            self.redirectURI = redirectURI
            self.nonce = nonce
            self.firstFactor = firstFactor
            self.reauthentication = reauthentication
            self.uiLocales = uiLocales
        }
    }

    /// Starts a session offering `methods`; returns the `auth_session` value (shown once) and
    /// the stored record.
    package func begin(_ binding: Binding, methods: [MFAMethod]) async throws -> (token: String, record: AuthSessionRecord) {
        let token = SecureRandom.token()
        let now = now()
        try await store.purgeExpiredMFAData(now: now)
        let record =
            AuthSessionRecord(
                sessionDigest: SecretDigest.of(token), clientID: binding.client.clientID,
                userID: binding.user.id, scope: binding.scope, codeChallenge: binding.codeChallenge,
                redirectURI: binding.redirectURI, nonce: binding.nonce, methods: methods,
                firstFactor: binding.firstFactor, reauthentication: binding.reauthentication,
                uiLocales: binding.uiLocales, createdAt: now, expiresAt: now.addingTimeInterval(Self.lifetime))
        try await store.insertAuthSession(record)
        return (token, record)
    }

    /// The live session named by `token` and its user; ``MFAFailure/unknownSession`` otherwise.
    package func session(_ token: String) async throws -> (record: AuthSessionRecord, user: UserRecord) {
        guard !token.isEmpty, token.utf8.count <= 256,
            let record = try await store.authSession(digest: SecretDigest.of(token)),
            record.expiresAt > now(),
            let user = try await store.user(id: record.userID)
        else { throw MFAFailure.unknownSession }
        return (record, user)
    }

    /// Chooses `method`. Email and SMS get a fresh code (replacing an earlier one); TOTP is
    /// only recorded. Returns the masked destination of a sent code.
    package func choose(
        _ method: MFAMethod, session: AuthSessionRecord, user: UserRecord, locales: [String],
        origin: RequestOrigin? = nil
    ) async throws -> String? {
        guard session.methods.contains(method) else {
            let offered = session.methods.map(\.rawValue).joined(separator: ", ")
            throw MFAFailure.methodUnavailable(
                "mfa_method \(method.rawValue) is not available for this sign-in; choose one of: \(offered).")
        }
        let channel: OutboundMessage.Channel
        let recipient: String
        let masked: String
        switch method {
        case .passkey:
            // Answered with `passkey_assertion` (``PasskeySignIn``), never a code.
            throw MFAFailure.methodUnavailable("A passkey is answered with passkey_assertion, not a code.")
        case .totp:
            guard
                try await store.recordAuthSessionDelivery(
                    digest: session.sessionDigest, method: .totp, codeDigest: nil, codeExpiresAt: nil,
                    expiresAt: session.expiresAt, maxCodes: Self.maxCodesSent)
            else { throw MFAFailure.unknownSession }
            return nil
        case .email:
            guard user.emailVerified else { throw MFAFailure.emailNotVerified }
            (channel, recipient, masked) = (.email, user.email, MaskedDestination.email(user.email))
        case .sms:
            let enrollment = try await store.mfaEnrollments(userID: user.id)
                .first { $0.method == .sms && $0.confirmed }
            guard let phone = enrollment?.phoneNumber else {
                throw MFAFailure.methodUnavailable("No confirmed phone number; choose another method.")
            }
            (channel, recipient, masked) = (.sms, phone, MaskedDestination.phone(phone))
        }
        guard session.codesSent < Self.maxCodesSent else { throw MFAFailure.tooManyCodes }
        let code = OneTimeCode.generate()
        let now = now()
        let codeExpiresAt = now.addingTimeInterval(OneTimeCode.lifetime)
        let expiresAt = min(
            session.createdAt.addingTimeInterval(Self.maximumLifetime),
            max(session.expiresAt, codeExpiresAt.addingTimeInterval(Self.lifetime)))
        // Counted before it is sent (one conditional statement): parallel requests send no more.
        guard
            try await store.recordAuthSessionDelivery(
                digest: session.sessionDigest, method: method, codeDigest: SecretDigest.of(code),
                codeExpiresAt: codeExpiresAt, expiresAt: expiresAt, maxCodes: Self.maxCodesSent)
        else { throw MFAFailure.tooManyCodes }
        try await delivery.send(code, channel: channel, to: recipient, locales: locales)
        audit.record(
            .mfaSent, origin: origin, clientID: session.clientID, userID: user.id, detail: ["method": method.rawValue])
        return masked
    }

    /// Checks the answer. On success the session is consumed and the authentication it
    /// establishes is returned (`acr` `urn:sesame:acr:mfa`, `amr` per RFC 8176, `auth_time` now).
    /// Records `mfa.verified` or `mfa.failed` (with the reason) in the audit log.
    package func verify(
        _ code: String, session: AuthSessionRecord, user: UserRecord, origin: RequestOrigin? = nil
    ) async throws -> AuthenticationContext {
        do {
            let authentication = try await verifyCode(code, session: session, user: user)
            audit.record(
                .mfaVerified, origin: origin, clientID: session.clientID, userID: user.id,
                detail: ["method": (session.chosenMethod ?? .totp).rawValue])
            return authentication
        } catch let failure as MFAFailure {
            let reason: String? =
                switch failure {
                case .wrongCode: "invalid_code"
                case .codeExpired: "expired"
                case .attemptsExhausted(let evaluated): evaluated ? "attempts_exhausted" : "no_attempts_left"
                case .malformedCode: "malformed_code"
                default: nil
                }
            if let reason {
                audit.record(.mfaFailed, reason: reason, origin: origin, clientID: session.clientID, userID: user.id)
            }
            throw failure
        }
    }

    private func verifyCode(_ code: String, session: AuthSessionRecord, user: UserRecord) async throws -> AuthenticationContext {
        guard let method = session.chosenMethod ?? (session.methods.contains(.totp) ? .totp : nil) else {
            throw MFAFailure.noMethodChosen
        }
        guard OneTimeCode.isWellFormed(code) else { throw MFAFailure.malformedCode }
        let now = now()
        var sentCode: String?
        if method != .totp {
            guard let digest = session.codeDigest, let expiresAt = session.codeExpiresAt else {
                throw MFAFailure.noMethodChosen
            }
            guard expiresAt > now else { throw MFAFailure.codeExpired }
            sentCode = digest
        }
        // Reserve: the attempt is counted before the comparison (see MFAStore); none left, no
        // comparison.
        guard
            let attempts = try await store.reserveAuthSessionAttempt(
                digest: session.sessionDigest, maxAttempts: OneTimeCode.maxAttempts)
        else {
            try await store.removeAuthSession(digest: session.sessionDigest)
            throw MFAFailure.attemptsExhausted(evaluated: false)
        }
        // Verify.
        let correct: Bool
        if let sentCode {
            correct = OneTimeCode.matches(code, digest: sentCode)
        } else if let enrollment = try await store.mfaEnrollments(userID: user.id)
            .first(where: { $0.method == .totp && $0.confirmed })
        {
            correct = try await totp.verify(code, enrollment: enrollment)
        } else {
            correct = false
        }
        // Settle: a wrong code stays counted, and the one that used the last attempt ends the
        // session; a right one consumes the session, unless it ended meanwhile.
        guard correct else {
            let remaining = OneTimeCode.maxAttempts - attempts
            if remaining <= 0 {
                try await store.removeAuthSession(digest: session.sessionDigest)
                throw MFAFailure.attemptsExhausted(evaluated: true)
            }
            throw MFAFailure.wrongCode(remaining: remaining)
        }
        guard try await store.consumeAuthSession(digest: session.sessionDigest, now: now) else {
            throw MFAFailure.unknownSession
        }
        return AuthenticationContext(
            userID: user.id, authTime: now, acr: AuthenticationContextClass.multiFactor,
            amr: Self.amr(firstFactor: session.firstFactor, method: method))
    }

    /// Completes the session with a passkey instead of a code (docs/passkeys.md): WebAuthn §7.2
    /// on `assertion` for a `step_up` challenge bound to this session; the passkey must be the
    /// user's, and the session is consumed. Records `mfa.verified`. `nil` when the passkey is
    /// another user's or the session was used meanwhile; a refused ceremony throws
    /// ``PasskeyCeremonyFailure``.
    package func verify(
        passkey assertion: AuthenticationResponseJSON, session: AuthSessionRecord, user: UserRecord,
        origin: RequestOrigin
    ) async throws -> AuthenticationContext? {
        guard session.methods.contains(.passkey) else { return nil }
        let (_, verified) = try await passkeys.authenticate(
            assertion, purposes: [.stepUp], binding: session.sessionDigest, origin: origin, clientID: session.clientID)
        let now = now()
        guard verified.passkey.userID == user.id,
            try await store.consumeAuthSession(digest: session.sessionDigest, now: now)
        else { return nil }
        audit.record(
            .mfaVerified, origin: origin, clientID: session.clientID, userID: user.id, detail: ["method": "passkey"])
        return PasskeyAuthenticationContext.stepUp(
            verified.passkey, flags: verified.flags, firstFactor: session.firstFactor, at: now)
    }

    /// RFC 8176 `amr`: the first factor's values, the method's (`otp` or `sms`), then `mfa`.
    package static func amr(firstFactor: [String], method: MFAMethod) -> [String] {
        var result = firstFactor.filter { $0 != AuthenticationMethodReference.multiFactor }
        if result.isEmpty { result = [AuthenticationMethodReference.password] }
        if !result.contains(method.authenticationMethodReference) {
            result.append(method.authenticationMethodReference)
        }
        result.append(AuthenticationMethodReference.multiFactor)
        return result
    }
}

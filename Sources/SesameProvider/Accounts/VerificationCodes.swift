import Foundation
import Logging
import SesameProtocol
import SesameStore

/// What an emailed account code proves (docs/first-party-and-accounts.md). The raw value is the outbox
/// `purpose` and names the `message.<purpose>.subject` / `.body` strings.
package enum VerificationPurpose: String, Sendable, CaseIterable {
    /// Sign-up: the user controls the address (`POST /api/signup/confirm`).
    case emailVerification = "email_verification"
    /// `POST /api/password/reset/confirm`.
    case passwordReset = "password_reset"
    /// `POST /api/email/confirm`: the user controls the new address.
    case emailChange = "email_change"
}

/// The one-time codes of account self-service: 6 digits drawn uniformly from ``SecureRandom``
/// (``OneTimeCode/generate()``), stored only as a ``SecretDigest`` bound to user and purpose,
/// valid ``lifetime``, single use, at most ``maxAttempts`` answers; a new code replaces the old.
///
/// A 6-digit code has only 10^6 values, so what protects it is the attempt limit (reserved in
/// the store before the comparison, so parallel guesses cannot exceed it) and the lifetime.
///
/// No account enumeration: a request for an address that gets no code (no account, or one
/// already verified) stores a code nobody knows under a stand-in owner for the address
/// (``standInOwner(of:purpose:)``), counted against the same quota; confirming it runs the same
/// reservation and comparison, so the answers (`The code is incorrect.`, `remaining_attempts`
/// 4, 3, …, then `No valid code is pending`) are those of an account's.
package struct VerificationCodes: Sendable {
    let store: any AccountStore
    let messageSender: any MessageSender
    let localizer: any Localizer
    let mailQuota: MailQuota
    let audit: AuditLog
    let logger: Logger
    let now: @Sendable () -> Date

    package init(
        store: any AccountStore, messageSender: any MessageSender, localizer: any Localizer, mailQuota: MailQuota,
        audit: AuditLog, logger: Logger, now: @escaping @Sendable () -> Date
    ) {
        self.store = store
        self.messageSender = messageSender
        self.localizer = localizer
        self.mailQuota = mailQuota
        self.audit = audit
        self.logger = logger
        self.now = now
    }

    package static let lifetime: TimeInterval = 15 * 60
    package static let maxAttempts = 5

    /// Creates a code for `user` (replacing a pending one of the same purpose), stores its
    /// digest, and emails it to `address` in the user's language. Past the recipient's quota
    /// (``MailQuota``) it does nothing: the code already sent stays the valid one, and the
    /// caller answers as if it had sent.
    package func issue(
        _ purpose: VerificationPurpose, for user: UserRecord, to address: String, locales: [String]
    ) async throws {
        guard try await mailQuota.admitMessage(to: address, purpose: purpose.rawValue) else {
            logger.notice("account mail not sent: the recipient's quota is used up", metadata: ["purpose": .string(purpose.rawValue)])
            return
        }
        let code = OneTimeCode.generate()
        let now = now()
        try await store.saveVerificationCode(
            VerificationCodeRecord(
                userID: user.id, purpose: purpose.rawValue,
                codeDigest: Self.digest(code, purpose: purpose, userID: user.id), target: address,
                createdAt: now, expiresAt: now.addingTimeInterval(Self.lifetime)))
        let key = "message.\(purpose.rawValue)"
        let message = OutboundMessage(
            channel: .email, to: address,
            subject: localizer.string(key + ".subject", locales: locales),
            body: localizer.string(key + ".body", locales: locales, arguments: ["code": code]),
            purpose: purpose.rawValue, createdAt: now)
        do {
            try await messageSender.send(message)
        } catch {
            logger.warning(
                "could not send an account message",
                metadata: ["purpose": .string(purpose.rawValue), "error": .string("\(error)")])
            throw ProviderFailure(
                .temporarilyUnavailable, "The email with the code could not be sent; try again later.")
        }
    }

    /// Stores a code nobody knows for `address`, which has no account that may receive a code
    /// of `purpose`, so that confirming at it answers as for an account (no enumeration).
    package func issueStandIn(_ purpose: VerificationPurpose, to address: String) async throws {
        guard try await mailQuota.admitMessage(to: address, purpose: purpose.rawValue) else { return }
        let now = now()
        try await store.saveVerificationCode(
            VerificationCodeRecord(
                userID: Self.standInOwner(of: address, purpose: purpose), purpose: purpose.rawValue,
                codeDigest: SecretDigest.of(SecureRandom.token()), target: address,
                createdAt: now, expiresAt: now.addingTimeInterval(Self.lifetime)))
    }

    /// The owner under which codes for `address` are kept when no account may receive them: a
    /// digest of purpose and address, never a user id (user ids are UUIDs).
    package static func standInOwner(of address: String, purpose: VerificationPurpose) -> String {
        standInPrefix + SecretDigest.of("\(purpose.rawValue):\(address)")
    }

    package static let standInPrefix = "stand-in:"

    /// Checks `code` for the user's pending code of `purpose` and consumes it: the attempt is
    /// reserved in the store first (none left: nothing is compared), then the code compared,
    /// then a right code consumed, unless a concurrent answer consumed it. Throws
    /// `invalid_verification_code` (3004) with `remaining_attempts` when it is wrong, expired,
    /// used up or absent, and `validation_failed` when it is not 6 digits.
    /// `beforeConsuming` runs once the code is right and before it is used up: a check that
    /// may depend on the account (a password that contains the username) fails there without
    /// spending the code, and without telling anyone without the code whether the account exists.
    package func redeem(
        _ purpose: VerificationPurpose, userID: String, code: String, validation: AccountValidation,
        beforeConsuming: (VerificationCodeRecord) async throws -> Void = { _ in }
    ) async throws -> VerificationCodeRecord {
        guard OneTimeCode.isWellFormed(code) else {
            throw validation.failure([.invalidFormat("code")], description: "The code is 6 digits.")
        }
        guard
            let record = try await store.reserveVerificationAttempt(
                userID: userID, purpose: purpose.rawValue, maxAttempts: Self.maxAttempts, now: now())
        else {
            throw Self.invalidCode(
                "No valid code is pending: it expired, was used, or too many wrong codes were entered. Request a new code.",
                remaining: 0)
        }
        let remaining = max(0, Self.maxAttempts - record.attempts)
        guard ConstantTime.equals(Self.digest(code, purpose: purpose, userID: userID), record.codeDigest) else {
            if remaining == 0 {
                // A stand-in owner (an address without such an account) is no user.
                let standIn = userID.hasPrefix(Self.standInPrefix)
                audit.record(
                    .verificationCodeExhausted, origin: nil, userID: standIn ? nil : userID,
                    detail: ["purpose": purpose.rawValue, "account": standIn ? "none" : "exists"])
            }
            throw Self.invalidCode(
                remaining > 0 ? "The code is incorrect." : "The code is incorrect and no attempts are left; request a new code.",
                remaining: remaining)
        }
        try await beforeConsuming(record)
        guard
            try await store.consumeVerificationCode(
                userID: userID, purpose: purpose.rawValue, codeDigest: record.codeDigest)
        else {
            throw Self.invalidCode("The code was already used; request a new code.", remaining: 0)
        }
        return record
    }

    /// SHA-256 over purpose, user and code, so a digest is useless for another user or purpose.
    package static func digest(_ code: String, purpose: VerificationPurpose, userID: String) -> String {
        SecretDigest.of("\(purpose.rawValue):\(userID):\(code)")
    }

    private static func invalidCode(_ description: String, remaining: Int) -> ProviderFailure {
        var failure = ProviderFailure(.invalidVerificationCode, description)
        failure.remainingAttempts = remaining
        return failure
    }
}

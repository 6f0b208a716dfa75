import Foundation
import Logging
import SesameProtocol

/// What an emailed account code proves (docs/first-party-and-accounts.md). The raw value is the outbox
/// `purpose` and names the `message.<purpose>.subject` / `.body` strings.
enum VerificationPurpose: String, Sendable, CaseIterable {
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
struct VerificationCodes: Sendable {
    let services: AccountServices

    static let lifetime: TimeInterval = 15 * 60
    static let maxAttempts = 5

    /// Creates a code for `user` (replacing a pending one of the same purpose), stores its
    /// digest, and emails it to `address` in the user's language. Past the recipient's quota
    /// (``MailQuota``) it does nothing: the code already sent stays the valid one, and the
    /// caller answers as if it had sent.
    func issue(
        _ purpose: VerificationPurpose, for user: UserRecord, to address: String, locales: [String]
    ) async throws {
        guard try await services.mailQuota.admitMessage(to: address, purpose: purpose.rawValue) else {
            services.logger.notice("account mail not sent: the recipient's quota is used up", metadata: ["purpose": .string(purpose.rawValue)])
            return
        }
        let code = OneTimeCode.generate()
        let now = services.now()
        try await services.accountStore.saveVerificationCode(
            VerificationCodeRecord(
                userID: user.id, purpose: purpose.rawValue,
                codeDigest: Self.digest(code, purpose: purpose, userID: user.id), target: address,
                createdAt: now, expiresAt: now.addingTimeInterval(Self.lifetime)))
        let key = "message.\(purpose.rawValue)"
        let message = OutboundMessage(
            channel: .email, to: address,
            subject: services.localizer.string(key + ".subject", locales: locales),
            body: services.localizer.string(key + ".body", locales: locales, arguments: ["code": code]),
            purpose: purpose.rawValue, createdAt: now)
        do {
            try await services.messageSender.send(message)
        } catch {
            services.logger.warning(
                "could not send an account message",
                metadata: ["purpose": .string(purpose.rawValue), "error": .string("\(error)")])
            throw EndpointFailure(
                .temporarilyUnavailable, "The email with the code could not be sent; try again later.")
        }
    }

    /// Checks `code` for the user's pending code of `purpose` and consumes it: the attempt is
    /// reserved in the store first (none left: nothing is compared), then the code compared,
    /// then a right code consumed, unless a concurrent answer consumed it. Throws
    /// `invalid_verification_code` (3004) with `remaining_attempts` when it is wrong, expired,
    /// used up or absent, and `validation_failed` when it is not 6 digits.
    func redeem(
        _ purpose: VerificationPurpose, userID: String?, code: String, validation: AccountValidation
    ) async throws -> VerificationCodeRecord {
        guard OneTimeCode.isWellFormed(code) else {
            throw validation.failure([.invalidFormat("code")], description: "The code is 6 digits.")
        }
        let store = services.accountStore
        guard let userID,
            let record = try await store.reserveVerificationAttempt(
                userID: userID, purpose: purpose.rawValue, maxAttempts: Self.maxAttempts, now: services.now())
        else {
            throw Self.invalidCode(
                "No valid code is pending: it expired, was used, or too many wrong codes were entered. Request a new code.",
                remaining: 0)
        }
        let remaining = max(0, Self.maxAttempts - record.attempts)
        guard ConstantTime.equals(Self.digest(code, purpose: purpose, userID: userID), record.codeDigest) else {
            if remaining == 0 {
                services.audit.record(
                    .verificationCodeExhausted, context: nil, userID: userID, detail: ["purpose": purpose.rawValue])
            }
            throw Self.invalidCode(
                remaining > 0 ? "The code is incorrect." : "The code is incorrect and no attempts are left; request a new code.",
                remaining: remaining)
        }
        guard
            try await store.consumeVerificationCode(
                userID: userID, purpose: purpose.rawValue, codeDigest: record.codeDigest)
        else {
            throw Self.invalidCode("The code was already used; request a new code.", remaining: 0)
        }
        return record
    }

    /// SHA-256 over purpose, user and code, so a digest is useless for another user or purpose.
    static func digest(_ code: String, purpose: VerificationPurpose, userID: String) -> String {
        SecretDigest.of("\(purpose.rawValue):\(userID):\(code)")
    }

    private static func invalidCode(_ description: String, remaining: Int) -> EndpointFailure {
        var failure = EndpointFailure(.invalidVerificationCode, description)
        failure.remainingAttempts = remaining
        return failure
    }
}

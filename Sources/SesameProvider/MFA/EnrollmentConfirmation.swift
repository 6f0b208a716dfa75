import Foundation
import SesameProtocol
import SesameStore

/// Confirms a pending TOTP or SMS enrolment with a code (docs/first-party-and-accounts.md): the same limits as
/// sign-in codes, with the pending enrolment discarded after 5 wrong codes (start again). A code
/// is compared only after its attempt was reserved in the store ("Attempt limits"); a right
/// code confirms only an enrolment still pending.
package struct EnrollmentConfirmation: Sendable {
    let store: any MFAStore
    let localizer: any Localizer
    let audit: AuditLog
    let now: @Sendable () -> Date

    package init(store: any MFAStore, localizer: any Localizer, audit: AuditLog, now: @escaping @Sendable () -> Date) {
        self.store = store
        self.localizer = localizer
        self.audit = audit
        self.now = now
    }

    /// Confirms the user's pending `method` enrolment when `isCorrect` accepts the code.
    package func confirm(
        _ method: MFAMethod, user: UserRecord, code: String, locales: [String],
        isCorrect: (MFAEnrollmentRecord) async throws -> Bool
    ) async throws -> MFAEnrollmentRecord {
        let start = "POST /api/mfa/\(method.rawValue)"
        guard var enrollment = try await store.mfaEnrollments(userID: user.id).first(where: { $0.method == method })
        else {
            throw ProviderFailure(.notFound, "Nothing to confirm; start with \(start).")
        }
        guard !enrollment.confirmed else {
            throw ProviderFailure(.invalidRequest, "\(method.rawValue) is already confirmed.")
        }
        guard OneTimeCode.isWellFormed(code) else {
            throw ProviderFailure(
                .validationFailed, "code must be 6 digits.",
                details: [localizer.fieldError(field: "code", code: "invalid_format", locales: locales)])
        }
        if let expiresAt = enrollment.codeExpiresAt, expiresAt <= now() {
            throw ProviderFailure(.mfaCodeExpired, "The code has expired; request a new one with \(start).")
        }
        // Reserve; none left: compare nothing.
        guard
            let attempts = try await store.reserveEnrollmentAttempt(
                userID: user.id, method: method, maxAttempts: OneTimeCode.maxAttempts)
        else {
            try await store.removePendingMFAEnrollment(userID: user.id, method: method)
            throw exhausted(start)
        }
        // Verify, then settle.
        guard try await isCorrect(enrollment) else {
            let remaining = OneTimeCode.maxAttempts - attempts
            if remaining <= 0 {
                try await store.removePendingMFAEnrollment(userID: user.id, method: method)
                audit.record(
                    .mfaFailed, reason: "attempts_exhausted", origin: nil, userID: user.id,
                    detail: ["method": method.rawValue, "stage": "enrollment"])
                throw exhausted(start)
            }
            var failure = ProviderFailure(
                .invalidMFACode, "The code is incorrect; \(remaining) attempt\(remaining == 1 ? "" : "s") left.")
            failure.remainingAttempts = remaining
            throw failure
        }
        let now = now()
        guard try await store.confirmMFAEnrollment(userID: user.id, method: method, at: now) else {
            // Discarded meanwhile by the wrong code that used the last attempt, or confirmed by
            // a concurrent right one.
            guard let current = try await store.mfaEnrollments(userID: user.id).first(where: { $0.method == method }),
                current.confirmed
            else { throw exhausted(start) }
            return current
        }
        enrollment.confirmed = true
        enrollment.confirmedAt = now
        return enrollment
    }

    private func exhausted(_ start: String) -> ProviderFailure {
        var failure = ProviderFailure(
            .mfaAttemptsExhausted, "Too many wrong codes; the enrolment was discarded. Start again with \(start).")
        failure.remainingAttempts = 0
        return failure
    }
}

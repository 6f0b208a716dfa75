import Foundation
import SesameProtocol

/// Confirms a pending TOTP or SMS enrolment with a code (docs/first-party-and-accounts.md): the same limits as
/// sign-in codes, with the pending enrolment discarded after 5 wrong codes (start again). A code
/// is compared only after its attempt was reserved in the store ("Attempt limits"); a right
/// code confirms only an enrolment still pending.
struct EnrollmentConfirmation: Sendable {
    let services: FirstPartyServices

    /// Confirms the user's pending `method` enrolment when `isCorrect` accepts the code.
    func confirm(
        _ method: MFAMethod, user: UserRecord, code: String, locales: [String],
        isCorrect: (MFAEnrollmentRecord) async throws -> Bool
    ) async throws -> MFAEnrollmentRecord {
        let store = services.mfaStore
        let start = "POST /api/mfa/\(method.rawValue)"
        guard var enrollment = try await store.mfaEnrollments(userID: user.id).first(where: { $0.method == method })
        else {
            throw EndpointFailure(.notFound, "Nothing to confirm; start with \(start).")
        }
        guard !enrollment.confirmed else {
            throw EndpointFailure(.invalidRequest, "\(method.rawValue) is already confirmed.")
        }
        guard OneTimeCode.isWellFormed(code) else {
            throw EndpointFailure(
                .validationFailed, "code must be 6 digits.",
                details: [services.localizer.fieldError(field: "code", code: "invalid_format", locales: locales)])
        }
        if let expiresAt = enrollment.codeExpiresAt, expiresAt <= services.now() {
            throw EndpointFailure(.mfaCodeExpired, "The code has expired; request a new one with \(start).")
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
                services.audit.record(
                    .mfaFailed, reason: "attempts_exhausted", context: nil, userID: user.id,
                    detail: ["method": method.rawValue, "stage": "enrollment"])
                throw exhausted(start)
            }
            var failure = EndpointFailure(
                .invalidMFACode, "The code is incorrect; \(remaining) attempt\(remaining == 1 ? "" : "s") left.")
            failure.remainingAttempts = remaining
            throw failure
        }
        let now = services.now()
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

    private func exhausted(_ start: String) -> EndpointFailure {
        var failure = EndpointFailure(
            .mfaAttemptsExhausted, "Too many wrong codes; the enrolment was discarded. Start again with \(start).")
        failure.remainingAttempts = 0
        return failure
    }
}

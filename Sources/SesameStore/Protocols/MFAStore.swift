import Foundation
import SesameProtocol

/// Persistence for first-party sign-in: MFA enrolments, auth sessions with their one-time
/// codes, and the markers of re-authentication codes. Implemented by ``SQLIdentityStore``
/// (`SQLIdentityStore+MFA.swift`, schema in ``FirstPartyMigrations``).
///
/// Like ``IdentityStore``, every operation that must be atomic is one conditional statement:
/// attempts are reserved before a code is compared, so concurrent guesses can never exceed
/// the limit, and an auth session is consumed by exactly one caller.
public protocol MFAStore: Sendable {
    // MARK: Enrolments

    /// The user's enrolments, confirmed or pending.
    func mfaEnrollments(userID: String) async throws -> [MFAEnrollmentRecord]
    /// Inserts the enrolment, or replaces the user's enrolment of the same method.
    func saveMFAEnrollment(_ enrollment: MFAEnrollmentRecord) async throws
    /// `true` when an enrolment was removed.
    @discardableResult func removeMFAEnrollment(userID: String, method: MFAMethod) async throws -> Bool
    /// Counts one confirmation attempt of a pending enrolment before its code is compared.
    /// Returns the attempts made including this one, or `nil` when `maxAttempts` were already
    /// used (or the enrolment is gone).
    func reserveEnrollmentAttempt(userID: String, method: MFAMethod, maxAttempts: Int) async throws -> Int?
    /// Marks the enrolment confirmed and forgets its pending code.
    func confirmMFAEnrollment(userID: String, method: MFAMethod, at date: Date) async throws
    /// RFC 6238 §5.2 replay protection: records `step` as the user's last accepted TOTP time
    /// step if it is later than the one recorded. `true` only for the one caller that recorded
    /// it; a step already used (or an earlier one) is `false`.
    func useTOTPStep(userID: String, step: Int64) async throws -> Bool

    // MARK: Auth sessions (draft-ietf-oauth-first-party-apps §5.2.2)

    func insertAuthSession(_ session: AuthSessionRecord) async throws
    /// The session, expired or not: callers compare `expiresAt` with their clock.
    func authSession(digest: String) async throws -> AuthSessionRecord?
    /// Records the chosen method and the code sent for it (`nil` for TOTP), counts the
    /// delivery, and moves the session's expiry.
    func recordAuthSessionDelivery(
        digest: String, method: MFAMethod, codeDigest: String?, codeExpiresAt: Date?, expiresAt: Date
    ) async throws
    /// Counts one answer before it is compared (see ``reserveEnrollmentAttempt(userID:method:maxAttempts:)``).
    func reserveAuthSessionAttempt(digest: String, maxAttempts: Int) async throws -> Int?
    /// Ends the unexpired session atomically: `true` for exactly one caller, which may then
    /// issue the authorization code. The row is deleted.
    func consumeAuthSession(digest: String, now: Date) async throws -> Bool
    func removeAuthSession(digest: String) async throws

    // MARK: Re-authentication codes

    /// Marks an authorization code as the result of a re-authentication (`max_age=0`): its
    /// tokens are short-lived and come without a refresh token. Written before the code.
    func markReauthenticationCode(digest: String, expiresAt: Date) async throws
    func isReauthenticationCode(digest: String) async throws -> Bool

    // MARK: Maintenance

    /// Deletes every enrolment and auth session of the user (account deletion).
    func removeMFAData(userID: String) async throws
    /// Deletes expired auth sessions and re-authentication markers.
    func purgeExpiredMFAData(now: Date) async throws
}


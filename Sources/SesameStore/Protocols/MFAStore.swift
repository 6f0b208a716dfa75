import Foundation
import SesameProtocol

/// Persistence for first-party sign-in: MFA enrolments, auth sessions with their one-time
/// codes, and the markers of re-authentication codes. Implemented by ``SQLIdentityStore``
/// (`SQLIdentityStore+MFA.swift`, schema in ``FirstPartyMigrations``).
///
/// Like ``IdentityStore``, every operation that must be atomic is one conditional statement:
/// attempts are reserved before a code is compared (docs/first-party-and-accounts.md, "Attempt
/// limits"), so concurrent guesses, on any number of processes, get exactly the allowed number
/// of comparisons, and an auth session is consumed by exactly one caller.
public protocol MFAStore: Sendable {
    // MARK: Enrolments

    /// The user's enrolments, confirmed or pending.
    func mfaEnrollments(userID: String) async throws -> [MFAEnrollmentRecord]
    /// Inserts the enrolment, or replaces the user's enrolment of the same method.
    func saveMFAEnrollment(_ enrollment: MFAEnrollmentRecord) async throws
    /// `true` when an enrolment was removed.
    @discardableResult func removeMFAEnrollment(userID: String, method: MFAMethod) async throws -> Bool
    /// Reserves one confirmation attempt of a pending enrolment before its code is compared
    /// (one conditional statement). Returns the attempts made including this one, or `nil` when
    /// `maxAttempts` were already used, or the enrolment is gone or confirmed: compare nothing then.
    func reserveEnrollmentAttempt(userID: String, method: MFAMethod, maxAttempts: Int) async throws -> Int?
    /// Settles a right code: marks the pending enrolment confirmed and forgets its code. `false`
    /// when it is no longer pending (discarded after too many wrong codes, or confirmed by a
    /// concurrent request).
    @discardableResult
    func confirmMFAEnrollment(userID: String, method: MFAMethod, at date: Date) async throws -> Bool
    /// Discards the enrolment if it is still pending (too many wrong codes); a confirmed one
    /// stays. `true` when one was removed.
    @discardableResult
    func removePendingMFAEnrollment(userID: String, method: MFAMethod) async throws -> Bool
    /// RFC 6238 §5.2 replay protection: records `step` as the user's last accepted TOTP time
    /// step if it is later than the one recorded. `true` only for the one caller that recorded
    /// it; a step already used (or an earlier one) is `false`.
    func useTOTPStep(userID: String, step: Int64) async throws -> Bool

    // MARK: Auth sessions (draft-ietf-oauth-first-party-apps §5.2.2)

    func insertAuthSession(_ session: AuthSessionRecord) async throws
    /// The session, expired or not: callers compare `expiresAt` with their clock.
    func authSession(digest: String) async throws -> AuthSessionRecord?
    /// Records the chosen method and the code about to be sent for it (`nil` for TOTP), counts
    /// the delivery, and moves the session's expiry, in one conditional statement: `false` (and
    /// nothing recorded) when the session is gone or a code would be the `maxCodes + 1`-th.
    /// Called before the code is sent, so parallel requests never send more than `maxCodes`.
    func recordAuthSessionDelivery(
        digest: String, method: MFAMethod, codeDigest: String?, codeExpiresAt: Date?, expiresAt: Date, maxCodes: Int
    ) async throws -> Bool
    /// Reserves one answer before it is compared (see ``reserveEnrollmentAttempt(userID:method:maxAttempts:)``).
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


import Foundation
import SesameProtocol

/// Persistence for account self-service (docs/first-party-and-accounts.md): one-time verification codes, the message
/// outbox, devices, and revoking a user's sessions. Implemented by ``SQLIdentityStore``
/// (`SQLIdentityStore+Accounts.swift`, schema in ``AccountMigrations``).
///
/// Like ``IdentityStore``, every operation that must be atomic is one conditional statement:
/// an attempt is reserved before a code is compared, so concurrent guesses never exceed the
/// limit, and a code is consumed by exactly one caller.
public protocol AccountStore: Sendable {
    // MARK: Verification codes

    /// Stores the code, replacing the user's pending code of the same purpose (and its attempts).
    func saveVerificationCode(_ code: VerificationCodeRecord) async throws
    /// The user's pending code for `purpose`, expired or not.
    func verificationCode(userID: String, purpose: String) async throws -> VerificationCodeRecord?
    /// Reserves one answer before it is compared (one conditional statement). Returns the code
    /// with the attempts made including this one, or `nil` when there is no unexpired, unused
    /// code or `maxAttempts` were used: compare nothing then. Of concurrent answers, on any
    /// number of processes, exactly the allowed number get the code.
    func reserveVerificationAttempt(
        userID: String, purpose: String, maxAttempts: Int, now: Date
    ) async throws -> VerificationCodeRecord?
    /// Ends the code atomically: `true` for exactly one caller, which may then act on it.
    func consumeVerificationCode(userID: String, purpose: String, codeDigest: String) async throws -> Bool
    func removeVerificationCodes(userID: String) async throws

    // MARK: Outbox

    /// Appends the message and returns its id (increasing: later messages have larger ids).
    @discardableResult func enqueueMessage(_ message: OutboundMessage) async throws -> Int64
    /// Messages oldest first, optionally only those to `recipient` (case-insensitive) and/or
    /// with `purpose`.
    func outboxEntries(to recipient: String?, purpose: String?) async throws -> [OutboxEntry]
    /// Records the hand-over to a relay and erases the body (it holds a one-time code).
    func markMessageDelivered(id: Int64, at date: Date) async throws

    // MARK: Devices

    /// Registers the device, or updates the name and type of the user's device with that id
    /// (keeping `created_at`). Returns the stored device, or `nil` when it is new and the user
    /// already has `limit` devices (checked in the same statement as the insert).
    func saveDevice(_ registration: DeviceRegistration, userID: String, now: Date, limit: Int) async throws -> Device?
    /// The user's devices, oldest first.
    func devices(userID: String) async throws -> [Device]
    /// `true` when the device existed.
    @discardableResult func removeDevice(userID: String, deviceID: String) async throws -> Bool
    func removeDevices(userID: String) async throws

    // MARK: Sessions

    /// Revokes every refresh-token family of the user (and so the access tokens minted from
    /// them) and ends their browser sessions, except the family and session named (the
    /// caller's own, e.g. after a password change).
    func revokeAllTokens(
        userID: String, now: Date, keepingFamily: String?, keepingSession: String?,
        reason: RefreshFamilyRevocationReason
    ) async throws

    // MARK: Maintenance

    /// Deletes expired verification codes.
    func purgeExpiredAccountData(now: Date) async throws
}

extension AccountStore {
    /// As ``revokeAllTokens(userID:now:keepingFamily:keepingSession:reason:)`` after a password
    /// change: a refresh of an ended family says the credentials changed.
    public func revokeAllTokens(
        userID: String, now: Date, keepingFamily: String?, keepingSession: String?
    ) async throws {
        try await revokeAllTokens(
            userID: userID, now: now, keepingFamily: keepingFamily, keepingSession: keepingSession, reason: .credentialsChanged)
    }

    /// Revokes every refresh token and browser session of the user (password reset, account
    /// deletion).
    public func revokeAllTokens(
        userID: String, now: Date, reason: RefreshFamilyRevocationReason = .credentialsChanged
    ) async throws {
        try await revokeAllTokens(userID: userID, now: now, keepingFamily: nil, keepingSession: nil, reason: reason)
    }
}

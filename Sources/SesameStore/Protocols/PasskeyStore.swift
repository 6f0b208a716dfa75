import Foundation

/// Passkeys and WebAuthn challenges (docs/passkeys.md). Challenges are single-use across
/// processes: ``consumeWebAuthnChallenge(digest:now:)`` hands a record to one caller only.
public protocol PasskeyStore: Sendable {
    /// ``StoreError/conflict(field:)`` (`credential_id`) when the id is registered already.
    func insertPasskey(_ passkey: PasskeyRecord) async throws
    func passkey(credentialID: String) async throws -> PasskeyRecord?
    /// Oldest first.
    func passkeys(userID: String) async throws -> [PasskeyRecord]
    @discardableResult func renamePasskey(credentialID: String, userID: String, name: String) async throws -> Bool
    @discardableResult func removePasskey(credentialID: String, userID: String) async throws -> Bool
    /// Reserves one signature check of the credential before it runs (docs/passkeys.md, "Wrong
    /// signatures"): counts it as a failure unless `maxFailures` were counted already or the
    /// credential is locked, and returns the failures now, this one included; `nil`: verify
    /// nothing. One conditional statement, so concurrent assertions on any number of processes
    /// get at most `maxFailures` signatures checked.
    func reservePasskeyAttempt(credentialID: String, maxFailures: Int) async throws -> Int?
    /// Gives a reservation back when the signature turned out not to be what failed (a stored key
    /// that cannot be read, a counter that went backwards, another use that got there first).
    func releasePasskeyAttempt(credentialID: String) async throws
    /// Locks the credential at `time` (the last allowed signature check failed). `true` for the
    /// one caller that locked it; `false` when it was locked already or is gone.
    func lockPasskey(credentialID: String, at time: Date) async throws -> Bool
    /// Records a verified use (§7.2 step 24) and settles the reservation (failures start over) if
    /// the stored counter is still `expectedSignCount` and the credential is not locked; `false`
    /// otherwise (the caller refuses: another use got there first, or a lock came meanwhile).
    func recordPasskeyUse(
        credentialID: String, expectedSignCount: UInt32, signCount: UInt32, backupState: Bool, uvInitialized: Bool,
        at time: Date
    ) async throws -> Bool

    func insertWebAuthnChallenge(_ challenge: WebAuthnChallengeRecord) async throws
    /// Removes and returns the live challenge; `nil` when unknown, expired or taken already.
    func consumeWebAuthnChallenge(digest: String, now: Date) async throws -> WebAuthnChallengeRecord?
}

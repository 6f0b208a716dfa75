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
    /// Records a verified use (§7.2 step 24) if the stored counter is still `expectedSignCount`;
    /// `false` when another use got there first (the caller refuses, as for a counter regression).
    func recordPasskeyUse(
        credentialID: String, expectedSignCount: UInt32, signCount: UInt32, backupState: Bool, uvInitialized: Bool,
        at time: Date
    ) async throws -> Bool

    func insertWebAuthnChallenge(_ challenge: WebAuthnChallengeRecord) async throws
    /// Removes and returns the live challenge; `nil` when unknown, expired or taken already.
    func consumeWebAuthnChallenge(digest: String, now: Date) async throws -> WebAuthnChallengeRecord?
}

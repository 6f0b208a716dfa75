import Crypto
import Foundation
import SesameProtocol
import SesameStore

/// WebAuthn Level 3 §7.2 "Verifying an Authentication Assertion", the relying party's steps
/// 3–24: here the credential record (steps 3–6) and its new state (step 24); steps 7–22 are
/// ``PasskeyAssertionVerifier``. Steps 1–2 are the options handed out (``PasskeyChallenges``)
/// and the client's call; step 23 ignores extensions, as it allows.
///
/// The signature of a known credential is a guess when the key is sealed under a PIN (a software
/// passkey), so it is counted like a PIN (docs/passkeys.md, "Wrong signatures"): a locked
/// credential is refused at step 6; after steps 7–19 one signature check is reserved in the
/// store (none left: refused, nothing verified); a wrong signature stays counted, and the one
/// that used the last of ``maximumFailures`` locks the credential; any other outcome gives the
/// reservation back, and a verified use (step 24) starts the count over.
package struct AuthenticationCeremony: Sendable {
    package let relyingParty: RelyingParty
    package let store: any PasskeyStore
    package let maximumFailures: Int
    package let now: @Sendable () -> Date

    package struct Verified: Sendable {
        package var passkey: PasskeyRecord
        package var flags: AuthenticatorData.Flags
    }

    /// - Parameters:
    ///   - expected: the challenge handed out (its record already taken: single use).
    ///   - userID: the user identified before the ceremony (a username, a step-up), or `nil` for
    ///     a discoverable sign-in (§7.2 step 6).
    ///   - allowed: `allowCredentials` of the options (§7.2 step 5); empty: any.
    ///   - requiresUserVerification: §7.2 step 17.
    package func verify(
        _ credential: AuthenticationResponseJSON, challenge expected: String, userID: String?, allowed: [String],
        requiresUserVerification: Bool
    ) async throws -> Verified {
        // Step 3: a public-key credential with an assertion response.
        guard credential.type == "public-key" else { throw PasskeyRefusal.malformedCredential("type must be public-key") }
        guard let rawID = Base64URL.decode(credential.rawId), !rawID.isEmpty,
            rawID.count <= AuthenticatorData.maximumCredentialIDLength, Base64URL.encode(rawID) == credential.id
        else { throw PasskeyRefusal.malformedCredential("id and rawId must be the same base64url credential id") }
        let credentialID = Base64URL.encode(rawID)
        // Step 5.
        if !allowed.isEmpty, !allowed.contains(credentialID) { throw PasskeyRefusal.notAllowed }
        // Step 6: the credential record, and the user it belongs to.
        guard let record = try await store.passkey(credentialID: credentialID) else {
            throw PasskeyRefusal.unknownCredential
        }
        let handle = try credential.response.userHandle.map { text throws(PasskeyRefusal) -> Data in
            guard let bytes = Base64URL.decode(text) else { throw .malformedCredential("userHandle must be base64url") }
            return bytes
        }
        if let userID {
            guard record.userID == userID else { throw PasskeyRefusal.otherUsersCredential }
            if let handle, handle.isEmpty == false, handle != PasskeyUserHandle.of(userID: userID) {
                throw PasskeyRefusal.otherUsersCredential
            }
        } else {
            guard let handle, !handle.isEmpty else { throw PasskeyRefusal.missingUserHandle }
            guard handle == PasskeyUserHandle.of(userID: record.userID) else { throw PasskeyRefusal.otherUsersCredential }
        }
        if record.lockedAt != nil { throw PasskeyRefusal.locked(PasskeyLock(record, lockedNow: false, signatureChecked: false)) }
        // Steps 7–19.
        let verifier = PasskeyAssertionVerifier(relyingParty: relyingParty)
        let stored = PasskeyAssertionVerifier.Stored(
            publicKey: record.publicKey, signCount: record.signCount, backupEligible: record.backupEligible)
        let checked = try verifier.checkBeforeSignature(
            credential, challenge: expected, stored: stored, requiresUserVerification: requiresUserVerification)
        // Reserve one signature check.
        guard let failures = try await store.reservePasskeyAttempt(credentialID: credentialID, maxFailures: maximumFailures)
        else {
            // No check left (locked meanwhile, or the last ones are in flight): the answer says
            // locked, so it must be (the lock is idempotent).
            let lockedNow = try await store.lockPasskey(credentialID: credentialID, at: now())
            throw PasskeyRefusal.locked(PasskeyLock(record, lockedNow: lockedNow, signatureChecked: false))
        }
        // Steps 20–22, then settle.
        let authData: PasskeyAssertionVerifier.Outcome
        do throws(PasskeyRefusal) {
            authData = try verifier.checkSignature(checked, stored: stored)
        } catch .badSignature {
            let remaining = maximumFailures - failures
            guard remaining <= 0 else { throw PasskeyRefusal.wrongSignature(remaining: remaining) }
            let lockedNow = try await store.lockPasskey(credentialID: credentialID, at: now())
            throw PasskeyRefusal.locked(PasskeyLock(record, lockedNow: lockedNow, signatureChecked: true))
        } catch {
            try await store.releasePasskeyAttempt(credentialID: credentialID)
            throw error
        }
        // Step 24: new state, only if no other use of the same credential got there first and no
        // lock came meanwhile; it starts the failures over.
        let uvInitialized = record.uvInitialized || authData.flags.contains(AuthenticatorData.Flags.userVerified)
        let backupState = authData.flags.contains(AuthenticatorData.Flags.backedUp)
        guard
            try await store.recordPasskeyUse(
                credentialID: credentialID, expectedSignCount: record.signCount, signCount: authData.signCount,
                backupState: backupState, uvInitialized: uvInitialized, at: now())
        else {
            if try await store.passkey(credentialID: credentialID)?.lockedAt != nil {
                throw PasskeyRefusal.locked(PasskeyLock(record, lockedNow: false, signatureChecked: false))
            }
            try await store.releasePasskeyAttempt(credentialID: credentialID)
            throw PasskeyRefusal.counterRegression(stored: record.signCount, presented: authData.signCount)
        }
        var updated = record
        updated.signCount = authData.signCount
        updated.backupState = backupState
        updated.uvInitialized = uvInitialized
        updated.lastUsedAt = now()
        return Verified(passkey: updated, flags: authData.flags)
    }
}

/// The WebAuthn user handle of an account (§5.4.3): the UTF-8 bytes of its random id. Never an
/// email or a name (§14.6.1).
package enum PasskeyUserHandle {
    package static func of(userID: String) -> Data { Data(userID.utf8) }
}

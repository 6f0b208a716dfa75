import Crypto
import Foundation
import SesameProtocol
import SesameStore

/// WebAuthn Level 3 §7.2 "Verifying an Authentication Assertion", the relying party's steps
/// 3–24, each named where it is done. Steps 1–2 are the options handed out
/// (``PasskeyChallenges``) and the client's call; step 23 ignores extensions, as it allows.
struct AuthenticationCeremony: Sendable {
    let relyingParty: RelyingParty
    let store: any PasskeyStore
    let now: @Sendable () -> Date

    struct Verified: Sendable {
        var passkey: PasskeyRecord
        var flags: AuthenticatorData.Flags
    }

    /// - Parameters:
    ///   - expected: the challenge handed out (its record already taken: single use).
    ///   - userID: the user identified before the ceremony (a username, a step-up), or `nil` for
    ///     a discoverable sign-in (§7.2 step 6).
    ///   - allowed: `allowCredentials` of the options (§7.2 step 5); empty: any.
    ///   - requiresUserVerification: §7.2 step 17.
    func verify(
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
        // Step 7.
        guard let clientDataJSON = Base64URL.decode(credential.response.clientDataJSON),
            let authDataBytes = Base64URL.decode(credential.response.authenticatorData),
            let signature = Base64URL.decode(credential.response.signature)
        else { throw PasskeyRefusal.malformedCredential("clientDataJSON, authenticatorData and signature must be base64url") }
        // Steps 8–9.
        guard let clientData = CollectedClientData.parse(clientDataJSON) else { throw PasskeyRefusal.malformedClientData }
        // Steps 10–14.
        try ClientDataChecks.verify(clientData, type: WebAuthn.getType, challenge: expected, relyingParty: relyingParty)
        let authData: AuthenticatorData
        do {
            authData = try AuthenticatorData(authDataBytes)
        } catch {
            throw PasskeyRefusal.malformedAuthenticatorData(error.description)
        }
        // Steps 15–18.
        try AuthenticatorDataChecks.verify(
            authData, relyingParty: relyingParty, requiresUserVerification: requiresUserVerification)
        // Step 19: BE never changes for a credential (§6.1.3).
        guard authData.flags.contains(.backupEligible) == record.backupEligible else {
            throw PasskeyRefusal.backupEligibilityChanged
        }
        // Steps 20–21.
        guard let key = try? COSEKey(CBORDecoder().decode(record.publicKey)) else {
            throw PasskeyRefusal.unsupportedAlgorithm("the stored key cannot be read")
        }
        let clientDataHash = Data(SHA256.hash(data: clientDataJSON))
        guard PasskeySignature.verify(signature, key: key, authenticatorData: authDataBytes, clientDataHash: clientDataHash)
        else { throw PasskeyRefusal.badSignature }
        // Step 22: a counter that does not increase is refused (Sesame's policy: a clone
        // signal is a refusal, and the audit log says so).
        if authData.signCount != 0 || record.signCount != 0, authData.signCount <= record.signCount {
            throw PasskeyRefusal.counterRegression(stored: record.signCount, presented: authData.signCount)
        }
        // Step 24: new state, only if no other use of the same credential got there first.
        let uvInitialized = record.uvInitialized || authData.flags.contains(.userVerified)
        let backupState = authData.flags.contains(.backedUp)
        guard
            try await store.recordPasskeyUse(
                credentialID: credentialID, expectedSignCount: record.signCount, signCount: authData.signCount,
                backupState: backupState, uvInitialized: uvInitialized, at: now())
        else { throw PasskeyRefusal.counterRegression(stored: record.signCount, presented: authData.signCount) }
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
enum PasskeyUserHandle {
    static func of(userID: String) -> Data { Data(userID.utf8) }
}

import Foundation
import SesameProtocol
import SesameStore

/// Why a WebAuthn ceremony failed, named by the step of WebAuthn Level 3 §7.1 (registration) or
/// §7.2 (authentication) that refused it. Each has its own audit reason and its own
/// `ceremony_step` in the error body; the `error_code` says what the user can do.
public enum PasskeyRefusal: Error, Sendable, Equatable {
    /// The answer is not a credential of type `public-key` (§7.1 step 3, §7.2 step 3), or its
    /// members are not base64url.
    case malformedCredential(String)
    /// §7.2 step 5: not one of `allowCredentials`.
    case notAllowed
    /// §7.2 step 6: no such credential.
    case unknownCredential
    /// §7.2 step 6: the credential, or the user handle, belongs to another user.
    case otherUsersCredential
    /// §7.2 step 6: discoverable sign-in without a user handle.
    case missingUserHandle
    /// §7.1 steps 5–6, §7.2 steps 8–9.
    case malformedClientData
    /// §7.1 step 7, §7.2 step 10.
    case wrongType(String)
    /// §7.1 step 8, §7.2 step 11: unknown, expired, used, or for another ceremony or session.
    case challenge(String)
    /// §7.1 step 9, §7.2 step 12.
    case wrongOrigin(String)
    /// §7.1 steps 10–11, §7.2 steps 13–14: Sesame's pages are never framed.
    case crossOrigin
    /// §7.1 step 13: the attestation object is not what §6.5.4 says.
    case malformedAttestation(String)
    /// §7.2 step 7: the authenticator data is not what §6.1 says.
    case malformedAuthenticatorData(String)
    /// §7.1 step 14, §7.2 step 15.
    case wrongRelyingParty
    /// §7.1 step 15, §7.2 step 16.
    case userNotPresent
    /// §7.1 step 16, §7.2 step 17.
    case userNotVerified
    /// §7.1 step 17, §7.2 step 18.
    case backupStateWithoutEligibility
    /// §7.2 step 19: BE changed since registration.
    case backupEligibilityChanged
    /// §7.1 step 20: the key's algorithm was not offered, or (§7.1 step 13) no attested key.
    case unsupportedAlgorithm(String)
    /// §7.1 steps 21–22: an attestation statement that does not verify.
    case attestationInvalid(String)
    /// §7.1 step 25.
    case credentialIDTooLong
    /// §7.1 step 26.
    case alreadyRegistered
    /// §7.2 step 21.
    case badSignature
    /// §7.2 step 21 for a known credential, counted (docs/passkeys.md, "Wrong signatures"): the
    /// signature does not verify with the registered key; `remaining` more before it is locked.
    case wrongSignature(remaining: Int)
    /// The credential is locked after too many wrong signatures in a row (Sesame's policy,
    /// checked with the credential record at §7.2 step 6, and by the wrong signature that locks
    /// it at step 21): nothing is verified.
    case locked(PasskeyLock)
    /// §7.2 step 22.
    case counterRegression(stored: UInt32, presented: UInt32)

    /// The step, as `ceremony_step` says it.
    public func step(registration: Bool) -> String {
        let section = registration ? "7.1" : "7.2"
        let number: String
        switch self {
        case .malformedCredential: number = "3"
        case .notAllowed: number = "5"
        case .unknownCredential, .otherUsersCredential, .missingUserHandle: number = "6"
        case .malformedClientData: number = registration ? "6" : "9"
        case .wrongType: number = registration ? "7" : "10"
        case .challenge: number = registration ? "8" : "11"
        case .wrongOrigin: number = registration ? "9" : "12"
        case .crossOrigin: number = registration ? "10" : "13"
        case .malformedAttestation: number = "13"
        case .malformedAuthenticatorData: number = registration ? "13" : "7"
        case .wrongRelyingParty: number = registration ? "14" : "15"
        case .userNotPresent: number = registration ? "15" : "16"
        case .userNotVerified: number = registration ? "16" : "17"
        case .backupStateWithoutEligibility: number = registration ? "17" : "18"
        case .backupEligibilityChanged: number = "19"
        case .unsupportedAlgorithm: number = "20"
        case .attestationInvalid: number = "22"
        case .credentialIDTooLong: number = "25"
        case .alreadyRegistered: number = "26"
        case .badSignature, .wrongSignature: number = "21"
        case .locked(let lock): number = lock.signatureChecked ? "21" : "6"
        case .counterRegression: number = "22"
        }
        return "\(section) step \(number) (\(reason))"
    }

    /// The audit reason.
    public var reason: String {
        switch self {
        case .malformedCredential: "malformed_credential"
        case .notAllowed: "not_allowed"
        case .unknownCredential: "unknown_credential"
        case .otherUsersCredential: "other_users_credential"
        case .missingUserHandle: "missing_user_handle"
        case .malformedClientData: "malformed_client_data"
        case .wrongType: "type"
        case .challenge: "challenge"
        case .wrongOrigin: "origin"
        case .crossOrigin: "cross_origin"
        case .malformedAttestation: "malformed_attestation"
        case .malformedAuthenticatorData: "malformed_authenticator_data"
        case .wrongRelyingParty: "rp_id_hash"
        case .userNotPresent: "user_present"
        case .userNotVerified: "user_verified"
        case .backupStateWithoutEligibility: "backup_state"
        case .backupEligibilityChanged: "backup_eligibility"
        case .unsupportedAlgorithm: "algorithm"
        case .attestationInvalid: "attestation"
        case .credentialIDTooLong: "credential_id_length"
        case .alreadyRegistered: "already_registered"
        case .badSignature, .wrongSignature: "signature"
        case .locked: "locked"
        case .counterRegression: "sign_count"
        }
    }

    package var code: APIErrorCode {
        switch self {
        case .challenge: .passkeyChallengeInvalid
        case .notAllowed, .unknownCredential, .otherUsersCredential, .missingUserHandle: .passkeyNotRecognized
        case .counterRegression: .passkeyCounterRegression
        case .locked: .passkeyLocked
        case .alreadyRegistered: .passkeyAlreadyRegistered
        default: .passkeyInvalid
        }
    }

    /// Developer-facing text; never the user's data.
    public var description: String {
        switch self {
        case .malformedCredential(let detail): "The credential is malformed: \(detail)."
        case .notAllowed: "The credential is not one of allowCredentials."
        case .unknownCredential: "No passkey with this credential id is registered."
        case .otherUsersCredential: "The passkey belongs to another account."
        case .missingUserHandle: "A sign-in without a username needs the authenticator's userHandle."
        case .malformedClientData: "clientDataJSON is not UTF-8 JSON client data."
        case .wrongType(let type): "clientData.type is '\(type)', not the ceremony's."
        case .challenge(let detail): "The challenge is \(detail); ask for new options."
        case .wrongOrigin(let origin): "clientData.origin '\(origin)' is not an origin of this server."
        case .crossOrigin: "The ceremony ran in a cross-origin frame; Sesame's pages are never framed."
        case .malformedAttestation(let detail): "The attestation object is malformed: \(detail)."
        case .malformedAuthenticatorData(let detail): "The authenticator data is malformed: \(detail)."
        case .wrongRelyingParty: "rpIdHash is not the SHA-256 of this server's RP ID."
        case .userNotPresent: "The authenticator did not test user presence (UP)."
        case .userNotVerified: "User verification (UV) is required: use a passkey protected by a screen lock, PIN or biometrics."
        case .backupStateWithoutEligibility: "BS is set without BE."
        case .backupEligibilityChanged: "BE differs from registration."
        case .unsupportedAlgorithm(let detail): "The key's algorithm is not accepted: \(detail)."
        case .attestationInvalid(let detail): "The attestation statement does not verify: \(detail)."
        case .credentialIDTooLong: "The credential id is longer than 1023 bytes."
        case .alreadyRegistered: "This credential id is registered already."
        case .badSignature: "The signature does not verify with the registered public key."
        case .wrongSignature(let remaining):
            "The signature does not verify with the registered public key (for a passkey protected by a PIN: a wrong PIN); \(remaining) attempt\(remaining == 1 ? "" : "s") left before the passkey is locked."
        case .locked(let lock):
            lock.signatureChecked
                ? "The signature does not verify with the registered public key, and that was the last attempt: the passkey is locked. Sign in another way, remove it and add it again."
                : "The passkey is locked after too many wrong signatures (for a passkey protected by a PIN: wrong PINs). Sign in another way, remove it and add it again."
        case .counterRegression(let stored, let presented):
            "The signature counter \(presented) is not above the stored \(stored): the authenticator may be cloned."
        }
    }

    package func endpointFailure(registration: Bool) -> PasskeyCeremonyFailure {
        var failure = ProviderFailure(code, description)
        switch self {
        case .wrongSignature(let remaining): failure.remainingAttempts = remaining
        case .locked: failure.remainingAttempts = 0
        default: break
        }
        return PasskeyCeremonyFailure(failure: failure, ceremonyStep: step(registration: registration))
    }
}

/// A credential that too many wrong signatures locked (``PasskeyRefusal/locked(_:)``).
public struct PasskeyLock: Sendable, Equatable {
    public var credentialID: String
    public var userID: String
    /// `true` for the one request that locked it (the audit log's `passkey.locked`).
    public var lockedNow: Bool
    /// `true` when this assertion's signature was checked (and was wrong, or the lock came while
    /// it was); `false`: nothing was verified.
    public var signatureChecked: Bool

    package init(_ record: PasskeyRecord, lockedNow: Bool, signatureChecked: Bool) {
        credentialID = record.credentialID
        userID = record.userID
        self.lockedNow = lockedNow
        self.signatureChecked = signatureChecked
    }
}

/// The error body of a refused ceremony: the code, and `ceremony_step`.
package struct PasskeyCeremonyFailure: APIErrorRendering {
    package var failure: ProviderFailure
    package let ceremonyStep: String

    package func decorate(_ body: inout APIError) {
        body.ceremonyStep = ceremonyStep
    }
}

import Foundation

/// A WebAuthn credential record (WebAuthn Level 3 §7.1 step 27): what the relying party keeps
/// of a registered passkey. The public key is kept as its COSE_Key bytes, exactly as the
/// authenticator wrote it.
public struct PasskeyRecord: Sendable, Equatable {
    /// The credential id, base64url (at most 1023 bytes before encoding, §7.1 step 25).
    public var credentialID: String
    public var userID: String
    /// COSE_Key (CBOR).
    public var publicKey: Data
    /// §6.1.1 signature counter as last seen.
    public var signCount: UInt32
    /// UV was set at registration, or later with a verified use (§7.2 step 24).
    public var uvInitialized: Bool
    public var backupEligible: Bool
    public var backupState: Bool
    /// `getTransports()` at registration (`internal`, `hybrid`, `usb`, …).
    public var transports: [String]
    /// The authenticator model's AAGUID, hex (all zeros under `none` attestation).
    public var aaguid: String
    /// `none` or `packed` (self attestation).
    public var attestationFormat: String
    public var name: String
    public var createdAt: Date
    public var lastUsedAt: Date?
    /// Assertions in a row whose signature did not verify with ``publicKey`` (for a software
    /// passkey sealed under a PIN: wrong PINs), each counted before its signature was checked.
    public var failures: Int
    /// When too many ``failures`` locked the credential: no assertion is verified any more
    /// (docs/passkeys.md, "Wrong signatures"); the user removes it and adds it again.
    public var lockedAt: Date?

    public init(
        credentialID: String, userID: String, publicKey: Data, signCount: UInt32, uvInitialized: Bool,
        backupEligible: Bool, backupState: Bool, transports: [String], aaguid: String, attestationFormat: String,
        name: String, createdAt: Date, lastUsedAt: Date? = nil, failures: Int = 0, lockedAt: Date? = nil
    ) {
        self.credentialID = credentialID
        self.userID = userID
        self.publicKey = publicKey
        self.signCount = signCount
        self.uvInitialized = uvInitialized
        self.backupEligible = backupEligible
        self.backupState = backupState
        self.transports = transports
        self.aaguid = aaguid
        self.attestationFormat = attestationFormat
        self.name = name
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
        self.failures = failures
        self.lockedAt = lockedAt
    }
}

/// A WebAuthn challenge the server handed out (§13.4.3: random, at least 16 bytes, used once):
/// kept as a digest, with what it is for and what it is bound to, so an answer is accepted only
/// in the ceremony, the session and for the user it was made for.
public struct WebAuthnChallengeRecord: Sendable, Equatable {
    public enum Purpose: String, Sendable, Codable {
        /// `navigator.credentials.create()` for ``WebAuthnChallengeRecord/userID``.
        case registration
        /// `navigator.credentials.get()` as a first factor (the user may be unknown).
        case signIn = "sign_in"
        /// `navigator.credentials.get()` as a second factor of ``WebAuthnChallengeRecord/userID``.
        case stepUp = "step_up"
    }

    /// ``SecretDigest`` of the challenge bytes' base64url.
    public var challengeDigest: String
    public var purpose: Purpose
    /// The user the ceremony is for, when known before it (registration, step-up, a sign-in
    /// that named a username).
    public var userID: String?
    /// What the answer must come with: the digest of the `auth_session`, or of the browser
    /// session or login form it was shown on.
    public var binding: String
    public var clientID: String?
    /// What the ceremony continues (the sign-in request's parameters), JSON.
    public var payload: String?
    public var createdAt: Date
    public var expiresAt: Date

    public init(
        challengeDigest: String, purpose: Purpose, userID: String?, binding: String, clientID: String?,
        payload: String?, createdAt: Date, expiresAt: Date
    ) {
        self.challengeDigest = challengeDigest
        self.purpose = purpose
        self.userID = userID
        self.binding = binding
        self.clientID = clientID
        self.payload = payload
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }
}

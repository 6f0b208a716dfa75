import Foundation

/// The account API's passkeys (docs/passkeys.md), bearer access token of a first-party client:
/// - `POST /api/passkeys/options` → ``CredentialCreationOptionsJSON`` (a fresh, single-use
///   challenge bound to the user, 5 minutes);
/// - `POST /api/passkeys` with ``PasskeyRegistration`` → 201 ``Passkey``;
/// - `GET /api/passkeys` → ``PasskeyList``;
/// - `PATCH /api/passkeys/{id}` with ``PasskeyRenameRequest`` → ``Passkey``;
/// - `DELETE /api/passkeys/{id}` → 204.
public struct Passkey: Codable, Sendable, Equatable {
    /// The credential id, base64url.
    public var id: String
    /// The name the user gave (default: the authenticator's kind and the date).
    public var name: String
    /// Seconds since 1970.
    public var createdAt: Int
    /// Seconds since 1970; `nil` before its first sign-in.
    public var lastUsedAt: Int?
    /// WebAuthn BE: the passkey may be synced to the user's other devices.
    public var backupEligible: Bool
    /// WebAuthn BS: it is synced now.
    public var backedUp: Bool
    /// `hwk` (bound to a device) or `swk` (synced, or kept in software), RFC 8176.
    public var keyKind: String
    /// `true` when too many wrong signatures in a row (for a passkey protected by a PIN: wrong
    /// PINs) locked it: it signs in no more; remove it and add it again (docs/passkeys.md).
    /// Absent from servers before the lock existed.
    public var locked: Bool?

    /// A passkey as the account API describes it; the times are seconds since 1970.
    public init(
        id: String, name: String, createdAt: Int, lastUsedAt: Int?, backupEligible: Bool, backedUp: Bool, keyKind: String,
        locked: Bool? = nil
    ) {
        self.id = id
        self.name = name
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
        self.backupEligible = backupEligible
        self.backedUp = backedUp
        self.keyKind = keyKind
        self.locked = locked
    }

    enum CodingKeys: String, CodingKey {
        case id, name
        case createdAt = "created_at"
        case lastUsedAt = "last_used_at"
        case backupEligible = "backup_eligible"
        case backedUp = "backed_up"
        case keyKind = "key_kind"
        case locked
    }
}

/// `GET /api/passkeys`, oldest first.
public struct PasskeyList: Codable, Sendable, Equatable {
    /// The account's passkeys, oldest first.
    public var passkeys: [Passkey]
    /// A list of `passkeys`.
    public init(passkeys: [Passkey]) { self.passkeys = passkeys }
}

/// `POST /api/passkeys`: the authenticator's answer to the options, and an optional name
/// (at most 64 characters).
public struct PasskeyRegistration: Codable, Sendable, Equatable {
    /// The authenticator's answer to the creation options (WebAuthn Level 3 §5.1.8
    /// `RegistrationResponseJSON`), checked per §7.1.
    public var credential: RegistrationResponseJSON
    /// The name to show (trimmed, at most 64 characters); `nil` or empty takes the default, the
    /// authenticator's kind and the date.
    public var name: String?
    /// A registration of `credential`, optionally named.
    public init(credential: RegistrationResponseJSON, name: String?) {
        self.credential = credential
        self.name = name
    }
}

/// `PATCH /api/passkeys/{id}`.
public struct PasskeyRenameRequest: Codable, Sendable, Equatable {
    /// The new name (trimmed, at most 64 characters).
    public var name: String
    /// A rename to `name`.
    public init(name: String) { self.name = name }
}

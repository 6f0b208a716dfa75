import Foundation

/// The JSON forms of WebAuthn Level 3 credentials and options (§5.1.8 `toJSON()`, §5.4
/// `PublicKeyCredentialCreationOptionsJSON`, §5.5 `PublicKeyCredentialRequestOptionsJSON`):
/// every binary member is unpadded base64url. These are what a browser's
/// `PublicKeyCredential.parseCreationOptionsFromJSON` takes and `credential.toJSON()` gives, what
/// Apple's AuthenticationServices adapter maps to, and what the SDK's software authenticator
/// writes: one shape on every path.

/// §5.4.2 `PublicKeyCredentialRpEntity`.
public struct RelyingPartyEntity: Codable, Sendable, Equatable {
    /// The RP ID: the domain credentials are scoped to, e.g. `example.com`; the origin's host or
    /// a registrable suffix of it.
    public var id: String
    /// §5.4.1 `name` (of `PublicKeyCredentialEntity`): the relying party's name, which an authenticator may show.
    public var name: String
    /// A relying party with RP ID `id` and display name `name`.
    public init(id: String, name: String) { self.id = id; self.name = name }
}

/// §5.4.3 `PublicKeyCredentialUserEntity`; `id` is the user handle, base64url (Sesame: the
/// account's random id, never an email or a name, §14.6.1).
public struct UserEntityJSON: Codable, Sendable, Equatable {
    /// The user handle, base64url: at most 64 bytes, never personal data (§5.4.3).
    public var id: String
    /// §5.4.1 `name`: the account's identifier as the user knows it (Sesame: the email).
    public var name: String
    /// §5.4.3 `displayName`: a friendly name for the account (Sesame: the user's name, or
    /// the email).
    public var displayName: String
    /// A user entity; `id` is the base64url user handle.
    public init(id: String, name: String, displayName: String) {
        self.id = id
        self.name = name
        self.displayName = displayName
    }
}

/// §5.3 `PublicKeyCredentialParameters`.
public struct CredentialParameters: Codable, Sendable, Equatable {
    /// §5.8.2 credential type: always `public-key`.
    public var type: String
    /// A COSE algorithm identifier (§5.8.5), e.g. -7 for ES256, -8 for EdDSA, -257 for RS256.
    public var alg: Int64
    /// A `public-key` entry for the COSE algorithm `alg`.
    public init(alg: Int64) { self.type = "public-key"; self.alg = alg }
}

/// §5.8.3 `PublicKeyCredentialDescriptor` (JSON).
public struct CredentialDescriptorJSON: Codable, Sendable, Equatable {
    /// §5.8.2 credential type: always `public-key`.
    public var type: String
    /// The credential id, base64url.
    public var id: String
    /// §5.8.4 transport hints (`internal`, `hybrid`, `usb`, `nfc`, `ble`, …), as the
    /// authenticator reported them at registration.
    public var transports: [String]?
    /// A `public-key` descriptor of the credential `id` (base64url).
    public init(id: String, transports: [String]? = nil) {
        self.type = "public-key"
        self.id = id
        self.transports = transports
    }
}

/// §5.4.4 `AuthenticatorSelectionCriteria`.
public struct AuthenticatorSelection: Codable, Sendable, Equatable {
    /// §5.4.4 `residentKey`: `discouraged`, `preferred` or `required` (§5.4.6); Sesame asks
    /// `required`, a discoverable credential for sign-in without a username.
    public var residentKey: String?
    /// §5.4.4 `requireResidentKey`: the Level 1 form of the same, `true` exactly when
    /// `residentKey` is `required`.
    public var requireResidentKey: Bool?
    /// §5.4.4 `userVerification`: `required`, `preferred` or `discouraged` (§5.8.6).
    public var userVerification: String?
    /// Selection criteria; `nil` members are left out of the JSON.
    public init(residentKey: String?, requireResidentKey: Bool?, userVerification: String?) {
        self.residentKey = residentKey
        self.requireResidentKey = requireResidentKey
        self.userVerification = userVerification
    }
}

/// §5.4 `PublicKeyCredentialCreationOptionsJSON`: what `navigator.credentials.create()` needs.
public struct CredentialCreationOptionsJSON: Codable, Sendable, Equatable {
    /// §5.4 `rp`: the relying party the credential is created for.
    public var rp: RelyingPartyEntity
    /// §5.4 `user`: the account the credential signs in to.
    public var user: UserEntityJSON
    /// §5.4 `challenge`: base64url of the server's random, single-use challenge, which the
    /// client data echoes.
    public var challenge: String
    /// §5.4 `pubKeyCredParams`: the accepted algorithms, most preferred first.
    public var pubKeyCredParams: [CredentialParameters]
    /// Milliseconds.
    public var timeout: Int?
    /// §5.4 `excludeCredentials`: the user's existing credentials, so one authenticator
    /// does not register twice.
    public var excludeCredentials: [CredentialDescriptorJSON]?
    /// §5.4 `authenticatorSelection`: what the authenticator must offer.
    public var authenticatorSelection: AuthenticatorSelection?
    /// §5.4 `attestation`: `none`, `indirect`, `direct` or `enterprise` (§5.4.7); Sesame asks `none`.
    public var attestation: String?

    /// Creation options from their members; `timeout` in milliseconds.
    public init(
        rp: RelyingPartyEntity, user: UserEntityJSON, challenge: String, pubKeyCredParams: [CredentialParameters],
        timeout: Int?, excludeCredentials: [CredentialDescriptorJSON]?, authenticatorSelection: AuthenticatorSelection?,
        attestation: String?
    ) {
        self.rp = rp
        self.user = user
        self.challenge = challenge
        self.pubKeyCredParams = pubKeyCredParams
        self.timeout = timeout
        self.excludeCredentials = excludeCredentials
        self.authenticatorSelection = authenticatorSelection
        self.attestation = attestation
    }
}

/// §5.5 `PublicKeyCredentialRequestOptionsJSON`: what `navigator.credentials.get()` needs. An
/// empty `allowCredentials` asks for a discoverable credential (sign-in without a username).
public struct CredentialRequestOptionsJSON: Codable, Sendable, Equatable {
    /// §5.5 `challenge`: base64url of the server's random, single-use challenge, which the
    /// client data echoes.
    public var challenge: String
    /// Milliseconds.
    public var timeout: Int?
    /// §5.5 `rpId`: the RP ID the credential must be scoped to.
    public var rpId: String
    /// §5.5 `allowCredentials`: the credentials that may answer; empty for a discoverable
    /// credential.
    public var allowCredentials: [CredentialDescriptorJSON]
    /// `required`, `preferred` or `discouraged` (§5.8.6).
    public var userVerification: String

    /// Request options from their members; `timeout` in milliseconds.
    public init(challenge: String, timeout: Int?, rpId: String, allowCredentials: [CredentialDescriptorJSON], userVerification: String) {
        self.challenge = challenge
        self.timeout = timeout
        self.rpId = rpId
        self.allowCredentials = allowCredentials
        self.userVerification = userVerification
    }
}

/// §5.2.1 `AuthenticatorAttestationResponseJSON` inside §5.1.8 `RegistrationResponseJSON`.
public struct RegistrationResponseJSON: Codable, Sendable, Equatable {
    /// §5.2.1 `AuthenticatorAttestationResponseJSON`: the authenticator's answer, base64url.
    public struct Response: Codable, Sendable, Equatable {
        /// Base64url of the client data bytes (`CollectedClientData`), as hashed.
        public var clientDataJSON: String
        /// Base64url of the CBOR attestation object (§6.5.4; `AttestationObject`).
        public var attestationObject: String
        /// §5.2.1 `getTransports()`: how the authenticator can be reached, kept for later
        /// credential descriptors.
        public var transports: [String]?
        /// An attestation response from its base64url members.
        public init(clientDataJSON: String, attestationObject: String, transports: [String]?) {
            self.clientDataJSON = clientDataJSON
            self.attestationObject = attestationObject
            self.transports = transports
        }
    }
    /// §5.1 `id`: the credential id, base64url.
    public var id: String
    /// §5.1 `rawId`: the same credential id bytes, base64url.
    public var rawId: String
    /// §5.1 credential type: `public-key`.
    public var type: String
    /// The authenticator's attestation response.
    public var response: Response
    /// §5.1 `authenticatorAttachment`: `platform` or `cross-platform` (§5.4.5), when
    /// the client says.
    public var authenticatorAttachment: String?

    /// A registration response; `type` is `public-key` unless a test says otherwise.
    public init(id: String, rawId: String, type: String = "public-key", response: Response, authenticatorAttachment: String? = nil) {
        self.id = id
        self.rawId = rawId
        self.type = type
        self.response = response
        self.authenticatorAttachment = authenticatorAttachment
    }
}

/// §5.2.2 `AuthenticatorAssertionResponseJSON` inside §5.1.8 `AuthenticationResponseJSON`.
public struct AuthenticationResponseJSON: Codable, Sendable, Equatable {
    /// §5.2.2 `AuthenticatorAssertionResponseJSON`: the authenticator's answer, base64url.
    public struct Response: Codable, Sendable, Equatable {
        /// Base64url of the client data bytes (`CollectedClientData`), as hashed.
        public var clientDataJSON: String
        /// Base64url of the authenticator data (§6.1) the signature covers.
        public var authenticatorData: String
        /// Base64url of the signature over `authenticatorData ‖ SHA-256(clientDataJSON)` (§6.3.3):
        /// DER for ES256, 64 raw bytes for EdDSA.
        public var signature: String
        /// §5.2.2 `userHandle`: base64url of the account's user handle; always present for a
        /// discoverable credential.
        public var userHandle: String?
        /// An assertion response from its base64url members.
        public init(clientDataJSON: String, authenticatorData: String, signature: String, userHandle: String?) {
            self.clientDataJSON = clientDataJSON
            self.authenticatorData = authenticatorData
            self.signature = signature
            self.userHandle = userHandle
        }
    }
    /// §5.1 `id`: the credential id, base64url.
    public var id: String
    /// §5.1 `rawId`: the same credential id bytes, base64url.
    public var rawId: String
    /// §5.1 credential type: `public-key`.
    public var type: String
    /// The authenticator's assertion response.
    public var response: Response
    /// §5.1 `authenticatorAttachment`: `platform` or `cross-platform` (§5.4.5), when
    /// the client says.
    public var authenticatorAttachment: String?

    /// An authentication response; `type` is `public-key` unless a test says otherwise.
    public init(id: String, rawId: String, type: String = "public-key", response: Response, authenticatorAttachment: String? = nil) {
        self.id = id
        self.rawId = rawId
        self.type = type
        self.response = response
        self.authenticatorAttachment = authenticatorAttachment
    }
}

/// WebAuthn names Sesame uses.
public enum WebAuthn {
    /// §5.8.6 `UserVerificationRequirement`.
    public enum UserVerification: String, Sendable {
        /// User verification (PIN, biometrics) or failure; Sesame requires it of a passkey used as the
        /// first factor.
        case required
        /// User verification when the authenticator can; Sesame's choice for registration and step-up.
        case preferred
        /// No user verification, to spare the user a prompt.
        case discouraged
    }
    /// §5.10.1 client data `type` of a registration.
    public static let createType = "webauthn.create"
    /// §5.10.1 client data `type` of an authentication.
    public static let getType = "webauthn.get"
    /// The AAGUID Sesame's software authenticator writes: it says "software" honestly, so the
    /// server records the credential as a software key (`amr` `swk`).
    public static let softwareAuthenticatorAAGUID = Data([
        0x53, 0x45, 0x53, 0x41, 0x4d, 0x45, 0x2d, 0x53, 0x4f, 0x46, 0x54, 0x57, 0x41, 0x52, 0x45, 0x31,
    ])
}

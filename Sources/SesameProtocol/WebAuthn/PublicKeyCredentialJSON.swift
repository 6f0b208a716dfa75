import Foundation

/// The JSON forms of WebAuthn Level 3 credentials and options (§5.1.8 `toJSON()`, §5.4
/// `PublicKeyCredentialCreationOptionsJSON`, §5.5 `PublicKeyCredentialRequestOptionsJSON`):
/// every binary member is unpadded base64url. These are what a browser's
/// `PublicKeyCredential.parseCreationOptionsFromJSON` takes and `credential.toJSON()` gives, what
/// Apple's AuthenticationServices adapter maps to, and what the SDK's software authenticator
/// writes: one shape on every path.

/// §5.4.1 `PublicKeyCredentialRpEntity`.
public struct RelyingPartyEntity: Codable, Sendable, Equatable {
    public var id: String
    public var name: String
    public init(id: String, name: String) { self.id = id; self.name = name }
}

/// §5.4.3 `PublicKeyCredentialUserEntity`; `id` is the user handle, base64url (Sesame: the
/// account's random id, never an email or a name, §14.6.1).
public struct UserEntityJSON: Codable, Sendable, Equatable {
    public var id: String
    public var name: String
    public var displayName: String
    public init(id: String, name: String, displayName: String) {
        self.id = id
        self.name = name
        self.displayName = displayName
    }
}

/// §5.3 `PublicKeyCredentialParameters`.
public struct CredentialParameters: Codable, Sendable, Equatable {
    public var type: String
    public var alg: Int64
    public init(alg: Int64) { self.type = "public-key"; self.alg = alg }
}

/// §5.8.3 `PublicKeyCredentialDescriptor` (JSON).
public struct CredentialDescriptorJSON: Codable, Sendable, Equatable {
    public var type: String
    public var id: String
    public var transports: [String]?
    public init(id: String, transports: [String]? = nil) {
        self.type = "public-key"
        self.id = id
        self.transports = transports
    }
}

/// §5.4.4 `AuthenticatorSelectionCriteria`.
public struct AuthenticatorSelection: Codable, Sendable, Equatable {
    public var residentKey: String?
    public var requireResidentKey: Bool?
    public var userVerification: String?
    public init(residentKey: String?, requireResidentKey: Bool?, userVerification: String?) {
        self.residentKey = residentKey
        self.requireResidentKey = requireResidentKey
        self.userVerification = userVerification
    }
}

/// §5.4 `PublicKeyCredentialCreationOptionsJSON`: what `navigator.credentials.create()` needs.
public struct CredentialCreationOptionsJSON: Codable, Sendable, Equatable {
    public var rp: RelyingPartyEntity
    public var user: UserEntityJSON
    public var challenge: String
    public var pubKeyCredParams: [CredentialParameters]
    /// Milliseconds.
    public var timeout: Int?
    public var excludeCredentials: [CredentialDescriptorJSON]?
    public var authenticatorSelection: AuthenticatorSelection?
    public var attestation: String?

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
    public var challenge: String
    /// Milliseconds.
    public var timeout: Int?
    public var rpId: String
    public var allowCredentials: [CredentialDescriptorJSON]
    /// `required`, `preferred` or `discouraged` (§5.8.6).
    public var userVerification: String

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
    public struct Response: Codable, Sendable, Equatable {
        public var clientDataJSON: String
        public var attestationObject: String
        public var transports: [String]?
        public init(clientDataJSON: String, attestationObject: String, transports: [String]?) {
            self.clientDataJSON = clientDataJSON
            self.attestationObject = attestationObject
            self.transports = transports
        }
    }
    public var id: String
    public var rawId: String
    public var type: String
    public var response: Response
    public var authenticatorAttachment: String?

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
    public struct Response: Codable, Sendable, Equatable {
        public var clientDataJSON: String
        public var authenticatorData: String
        public var signature: String
        public var userHandle: String?
        public init(clientDataJSON: String, authenticatorData: String, signature: String, userHandle: String?) {
            self.clientDataJSON = clientDataJSON
            self.authenticatorData = authenticatorData
            self.signature = signature
            self.userHandle = userHandle
        }
    }
    public var id: String
    public var rawId: String
    public var type: String
    public var response: Response
    public var authenticatorAttachment: String?

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
        case required, preferred, discouraged
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

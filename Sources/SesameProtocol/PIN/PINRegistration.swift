import Foundation

/// `POST /api/pin/registrations`: registers this device for PIN unlock (docs/pin-devices.md).
/// The device keeps an Ed25519 key whose private half is sealed under a key derived from the PIN;
/// the server stores the public half and later verifies unlock signatures with it.
public struct PINRegistrationRequest: Codable, Sendable, Equatable {
    /// Base64url of the 32-byte Ed25519 public key (RFC 8032).
    public var publicKey: String
    /// A name for the user's list, e.g. "Alice's phone".
    public var label: String?

    /// A registration of `publicKey` (base64url Ed25519), optionally labelled.
    public init(publicKey: String, label: String? = nil) {
        self.publicKey = publicKey
        self.label = label
    }

    enum CodingKeys: String, CodingKey {
        case publicKey = "public_key"
        case label
    }
}

/// One PIN registration ("PIN device") as the account APIs show it.
public struct PINRegistration: Codable, Sendable, Equatable {
    /// The registration's id: `registration_id` when asking for a nonce and unlocking, and the
    /// `{id}` of `DELETE /api/pin/registrations/{id}`.
    public var id: String
    /// The name given at registration, if any.
    public var label: String?
    /// The client (app) the device registered through; its PIN policy applies.
    public var clientID: String
    /// When the device was registered, in seconds since 1970.
    public var createdAt: Int
    /// The last successful unlock, in seconds since 1970; `nil` before the first.
    public var lastUsedAt: Int?
    /// Wrong PINs in a row so far.
    public var failures: Int
    /// The policy of the registration's client.
    public var policy: PINPolicy

    /// A registration as the account APIs show it; times in seconds since 1970.
    public init(
        id: String, label: String?, clientID: String, createdAt: Int, lastUsedAt: Int?, failures: Int, policy: PINPolicy
    ) {
        self.id = id
        self.label = label
        self.clientID = clientID
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
        self.failures = failures
        self.policy = policy
    }

    enum CodingKeys: String, CodingKey {
        case id, label, failures, policy
        case clientID = "client_id"
        case createdAt = "created_at"
        case lastUsedAt = "last_used_at"
    }
}

/// `GET /api/pin/registrations`.
public struct PINRegistrationList: Codable, Sendable, Equatable {
    /// The signed-in user's registrations, one per device and app.
    public var registrations: [PINRegistration]

    /// A list of registrations.
    public init(registrations: [PINRegistration]) { self.registrations = registrations }
}

/// `POST /api/pin/nonce` → a single-use nonce to sign for an unlock.
public struct PINNonceRequest: Codable, Sendable, Equatable {
    /// The client the registration belongs to (`PINRegistration.clientID`).
    public var clientID: String
    /// The registration to unlock (`PINRegistration.id`).
    public var registrationID: String

    /// A nonce request for one registration of one client.
    public init(clientID: String, registrationID: String) {
        self.clientID = clientID
        self.registrationID = registrationID
    }

    enum CodingKeys: String, CodingKey {
        case clientID = "client_id"
        case registrationID = "registration_id"
    }
}

/// The answer to `POST /api/pin/nonce`: a single-use, MAC-protected nonce the device signs
/// (`PINUnlock.signingInput(registrationID:nonce:)`) to unlock.
public struct PINNonce: Codable, Sendable, Equatable {
    /// Opaque; signed as it is and sent back as the unlock grant's `nonce`.
    public var nonce: String
    /// Seconds until the nonce is no longer accepted (60).
    public var expiresIn: Int

    /// A nonce and its lifetime in seconds.
    public init(nonce: String, expiresIn: Int) {
        self.nonce = nonce
        self.expiresIn = expiresIn
    }

    enum CodingKeys: String, CodingKey {
        case nonce
        case expiresIn = "expires_in"
    }
}

/// The PIN unlock grant at `/token` (docs/pin-devices.md): `grant_type` ``grantType``,
/// `client_id`, `registration_id`, `nonce` and `signature`, the base64url Ed25519 signature of
/// ``signingInput(registrationID:nonce:)``.
public enum PINUnlock {
    /// The `grant_type` of a PIN unlock (an extension grant, RFC 6749 §4.5).
    public static let grantType = "urn:sesame:params:oauth:grant-type:pin"
    /// The registration being unlocked (`PINRegistration.id`).
    public static let registrationIDParameter = "registration_id"
    /// The nonce from `POST /api/pin/nonce`, single use.
    public static let nonceParameter = "nonce"
    /// Base64url of the 64-byte Ed25519 signature (RFC 8032) over
    /// `signingInput(registrationID:nonce:)`.
    public static let signatureParameter = "signature"

    /// What the device signs: a fixed context, the registration and the server's nonce.
    public static func signingInput(registrationID: String, nonce: String) -> Data {
        Data("sesame-pin-unlock:\(registrationID):\(nonce)".utf8)
    }
}

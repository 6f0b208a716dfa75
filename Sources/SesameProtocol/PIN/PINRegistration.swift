import Foundation

/// `POST /api/pin/registrations`: registers this device for PIN unlock (docs/pin-devices.md).
/// The device keeps an Ed25519 key whose private half is sealed under a key derived from the PIN;
/// the server stores the public half and later verifies unlock signatures with it.
public struct PINRegistrationRequest: Codable, Sendable, Equatable {
    /// Base64url of the 32-byte Ed25519 public key (RFC 8032).
    public var publicKey: String
    /// A name for the user's list, e.g. "Alice's phone".
    public var label: String?

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
    public var id: String
    public var label: String?
    public var clientID: String
    public var createdAt: Int
    public var lastUsedAt: Int?
    /// Wrong PINs in a row so far.
    public var failures: Int
    /// The policy of the registration's client.
    public var policy: PINPolicy

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
    public var registrations: [PINRegistration]

    public init(registrations: [PINRegistration]) { self.registrations = registrations }
}

/// `POST /api/pin/nonce` → a single-use nonce to sign for an unlock.
public struct PINNonceRequest: Codable, Sendable, Equatable {
    public var clientID: String
    public var registrationID: String

    public init(clientID: String, registrationID: String) {
        self.clientID = clientID
        self.registrationID = registrationID
    }

    enum CodingKeys: String, CodingKey {
        case clientID = "client_id"
        case registrationID = "registration_id"
    }
}

public struct PINNonce: Codable, Sendable, Equatable {
    public var nonce: String
    public var expiresIn: Int

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
    public static let grantType = "urn:sesame:params:oauth:grant-type:pin"
    public static let registrationIDParameter = "registration_id"
    public static let nonceParameter = "nonce"
    public static let signatureParameter = "signature"

    /// What the device signs: a fixed context, the registration and the server's nonce.
    public static func signingInput(registrationID: String, nonce: String) -> Data {
        Data("sesame-pin-unlock:\(registrationID):\(nonce)".utf8)
    }
}

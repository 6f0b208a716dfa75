import Foundation
import SesameProtocol

/// A device registered for PIN unlock (``PINStore``): the Ed25519 public key the device's
/// PIN-sealed private key signs unlock nonces with, and the count of wrong PINs in a row.
public struct PINRegistrationRecord: Sendable, Equatable {
    /// 128 random bits, base64url.
    public var id: String
    public var userID: String
    public var clientID: String
    public var label: String?
    /// The raw 32-byte Ed25519 public key.
    public var publicKey: Data
    public var failures: Int
    public var createdAt: Date
    public var lastUsedAt: Date?

    public init(
        id: String? = nil, userID: String, clientID: String, label: String?,
        publicKey: Data, failures: Int = 0, createdAt: Date, lastUsedAt: Date? = nil
    ) {
        self.id = id ?? Base64URL.encode(SecureRandom.bytes(16))
        self.userID = userID
        self.clientID = clientID
        self.label = label
        self.publicKey = publicKey
        self.failures = failures
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
    }

    /// The session id of the tokens an unlock issues: revoking it ends them all.
    public var sessionID: String { "pin:" + id }
}

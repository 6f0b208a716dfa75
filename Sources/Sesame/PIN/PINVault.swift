import Crypto
import Foundation
import SesameProtocol
import _CryptoExtras

/// What the device keeps for one PIN registration (docs/pin-devices.md), in the credential store
/// under `sesame.pin.<registration id>`. The property that matters: **nothing here lets a PIN
/// guess be checked offline.** The Ed25519 key that unlocks is stored as
/// `seed XOR scrypt(PIN, salt)`: 32 bytes with no tag, no checksum, no hash of the PIN and no
/// public key, so every PIN decrypts it to 32 bytes that look exactly as valid as the right
/// ones. Only the server, which knows the public key, can tell — and it counts.
struct PINVaultRecord: Codable, Sendable, Equatable {
    static let formatVersion = 1

    var version = PINVaultRecord.formatVersion
    var registrationID: String
    var accountID: String
    var issuer: String
    var subject: String
    var clientID: String
    var label: String?
    var createdAt: Date
    var kdf: PINKeyDerivation
    /// 16 random bytes, base64url; new at every sealing.
    var salt: String
    /// The sealed 32-byte Ed25519 seed, base64url.
    var sealedSeed: String

    var profile: PINProfile {
        PINProfile(id: registrationID, account: accountID, label: label, createdAt: createdAt)
    }

    enum CodingKeys: String, CodingKey {
        case version
        case registrationID = "registration_id"
        case accountID = "account_id"
        case issuer, subject
        case clientID = "client_id"
        case label
        case createdAt = "created_at"
        case kdf, salt
        case sealedSeed = "sealed_seed"
    }
}

/// Sealing and unsealing of ``PINVaultRecord``s.
enum PINVault {
    static let keyPrefix = "sesame.pin."
    static let seedLength = 32

    static func key(_ registrationID: String) -> String { keyPrefix + registrationID }

    /// Seals `seed` under `pin` with a fresh salt (`PINSealing`): (salt, sealed seed), both
    /// base64url.
    static func seal(_ seed: [UInt8], pin: String, kdf: PINKeyDerivation) throws(SesameError) -> (salt: String, sealed: String) {
        do {
            return try PINSealing.seal(seed, pin: pin, kdf: kdf)
        } catch {
            throw failure(error, registrationID: nil)
        }
    }

    /// The seed the record holds under `pin` (any PIN gives 32 bytes; only the server can tell
    /// whether they are the right ones).
    static func unseal(_ record: PINVaultRecord, pin: String) throws(SesameError) -> [UInt8] {
        do {
            return try PINSealing.open(sealed: record.sealedSeed, salt: record.salt, pin: pin, kdf: record.kdf)
        } catch {
            throw failure(error, registrationID: record.registrationID)
        }
    }

    private static func failure(_ failure: PINSealing.Failure, registrationID: String?) -> SesameError {
        switch failure {
        case .damaged: .technical(.storage("the PIN record \(registrationID ?? "") is damaged"))
        case .parametersOutOfRange: .technical(.storage("the PIN record's key derivation parameters are out of range"))
        case .kdf(let detail): .technical(.platform("scrypt failed: \(detail)"))
        }
    }

    /// The Ed25519 signing key of a seed.
    static func signingKey(_ seed: [UInt8]) throws(SesameError) -> Curve25519.Signing.PrivateKey {
        do {
            return try Curve25519.Signing.PrivateKey(rawRepresentation: seed)
        } catch {
            throw .technical(.platform("could not make the device key: \(error)"))
        }
    }
}

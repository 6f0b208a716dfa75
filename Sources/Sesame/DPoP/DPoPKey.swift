import Crypto
import Foundation
import SesameProtocol

/// A DPoP key (RFC 9449 §2): the private key an account's tokens are bound to. It signs the
/// proof sent with every token request and every API call; its public half travels in each
/// proof's `jwk` header. A thief of the tokens alone cannot use them.
public protocol DPoPKey: Sendable {
    /// The JWS algorithm of its signatures (RFC 7518 §3.1), e.g. `ES256`.
    var algorithm: String { get }
    /// The public key's JWK members (RFC 7517 §4), e.g. `kty`, `crv`, `x`, `y`.
    var publicJWK: [String: String] { get }
    /// The RFC 7638 SHA-256 thumbprint of the public key: the `jkt` tokens are bound to.
    var thumbprint: String { get }
    /// What the SDK stores (in the ``CredentialStore``, with the session) to load the key again.
    var material: DPoPKeyMaterial { get }
    /// The JWS signature of `signingInput` (for ECDSA the fixed-length `R || S`, RFC 7518 §3.4).
    func sign(_ signingInput: Data) throws -> Data
}

/// The stored form of a ``DPoPKey``: which kind of key and its bytes. For a Secure Enclave key
/// the bytes are the enclave's wrapped blob, which no other device can use.
public struct DPoPKeyMaterial: Codable, Sendable, Equatable {
    /// The key's kind, e.g. ``SoftwareDPoPKey/kind``.
    public var kind: String
    /// The key's bytes in that kind's representation.
    public var data: Data

    /// Material of `kind` with `data`.
    public init(kind: String, data: Data) {
        self.kind = kind
        self.data = data
    }
}

/// Makes new DPoP keys and loads stored ones: one key per signed-in account (RFC 9449 §2).
/// ``SoftwareDPoPKeys`` everywhere; on Apple devices with a Secure Enclave,
/// `SecureEnclaveDPoPKeys`, whose keys never leave the enclave.
public protocol DPoPKeyFactory: Sendable {
    /// A new key for an account about to sign in.
    func makeKey() throws -> any DPoPKey
    /// The key stored as `material`; throws when this factory cannot load that kind.
    func key(from material: DPoPKeyMaterial) throws -> any DPoPKey
}

/// A P-256 DPoP key held in memory (swift-crypto), stored as its raw private scalar with the
/// session: in the Keychain on Apple platforms, in the encrypted credential file on Linux.
public struct SoftwareDPoPKey: DPoPKey {
    /// The ``DPoPKeyMaterial/kind`` of software keys.
    public static let kind = "p256-software"
    let key: P256.Signing.PrivateKey

    /// A key around an existing P-256 private key.
    public init(_ key: P256.Signing.PrivateKey = P256.Signing.PrivateKey()) { self.key = key }

    /// `ES256`: ECDSA with P-256 and SHA-256 (RFC 7518 §3.4).
    public var algorithm: String { "ES256" }
    /// The public key as an EC JWK (RFC 7518 §6.2.1): `kty`, `crv`, `x`, `y`.
    public var publicJWK: [String: String] { DPoPKeys.jwk(raw: key.publicKey.rawRepresentation) }
    /// The RFC 7638 thumbprint of the public key.
    public var thumbprint: String { DPoPKeys.thumbprint(raw: key.publicKey.rawRepresentation) }
    /// The raw private scalar, kept with the session in the credential store.
    public var material: DPoPKeyMaterial { DPoPKeyMaterial(kind: Self.kind, data: key.rawRepresentation) }

    /// The ES256 signature (`R || S`) of `signingInput`.
    public func sign(_ signingInput: Data) throws -> Data {
        try key.signature(for: signingInput).rawRepresentation
    }
}

/// Makes and loads ``SoftwareDPoPKey``s.
public struct SoftwareDPoPKeys: DPoPKeyFactory {
    /// The factory.
    public init() {}

    /// A new key.
    public func makeKey() throws -> any DPoPKey { SoftwareDPoPKey() }

    /// The key stored as `material`.
    public func key(from material: DPoPKeyMaterial) throws -> any DPoPKey {
        guard material.kind == SoftwareDPoPKey.kind else {
            throw SesameError.invalidConfiguration(
                "the stored DPoP key is a \(material.kind) key, which this device cannot load; sign in again")
        }
        do {
            return SoftwareDPoPKey(try P256.Signing.PrivateKey(rawRepresentation: material.data))
        } catch {
            throw SesameError.technical(.storage("the stored DPoP key is damaged; sign in again"))
        }
    }
}

/// Shared helpers of the P-256 keys.
enum DPoPKeys {
    /// The EC JWK (RFC 7518 §6.2.1) of a P-256 public key's raw `x || y`.
    static func jwk(raw: Data) -> [String: String] {
        ["kty": "EC", "crv": "P-256", "x": Base64URL.encode(raw.prefix(32)), "y": Base64URL.encode(raw.suffix(32))]
    }

    /// The RFC 7638 thumbprint of a P-256 public key's raw `x || y`.
    static func thumbprint(raw: Data) -> String {
        JWKThumbprint.ec(curve: "P-256", x: Array(raw.prefix(32)), y: Array(raw.suffix(32)))
    }

    /// The factory of this platform: the Secure Enclave where there is one, else software.
    static var platformDefault: any DPoPKeyFactory {
        #if canImport(CryptoKit) && (os(iOS) || os(macOS) || os(visionOS) || os(watchOS) || os(tvOS))
            if SecureEnclaveDPoPKeys.isAvailable { return SecureEnclaveDPoPKeys() }
        #endif
        return SoftwareDPoPKeys()
    }
}

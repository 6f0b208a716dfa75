#if canImport(CryptoKit) && (os(iOS) || os(macOS) || os(visionOS) || os(watchOS) || SESAME_APPLE_DECLARATIONS)
    import CryptoKit
    import Foundation

    /// A DPoP key in the Secure Enclave (RFC 9449 §2 on Apple devices): created in the enclave,
    /// never leaves it, signs there. What the SDK stores is the enclave's wrapped blob
    /// (`dataRepresentation`), useless on any other device, so a copy of the app's storage cannot
    /// sign proofs. Thin by design: the proof logic is the SDK's and tested with software keys.
    public struct SecureEnclaveDPoPKey: DPoPKey {
        /// The ``DPoPKeyMaterial/kind`` of Secure Enclave keys.
        public static let kind = "p256-secure-enclave"
        let key: SecureEnclave.P256.Signing.PrivateKey

        /// `ES256`: ECDSA with P-256 and SHA-256 (RFC 7518 §3.4).
        public var algorithm: String { "ES256" }

        /// The public key as an EC JWK (RFC 7518 §6.2.1): `kty`, `crv`, `x`, `y`.
        public var publicJWK: [String: String] { DPoPKeys.jwk(raw: key.publicKey.rawRepresentation) }

        /// The RFC 7638 thumbprint of the public key.
        public var thumbprint: String { DPoPKeys.thumbprint(raw: key.publicKey.rawRepresentation) }

        /// The Secure Enclave's wrapped key blob: usable only on this device.
        public var material: DPoPKeyMaterial { DPoPKeyMaterial(kind: Self.kind, data: key.dataRepresentation) }

        /// The ES256 signature (`R || S`) of `signingInput`, made in the enclave.
        public func sign(_ signingInput: Data) throws -> Data {
            try key.signature(for: signingInput).rawRepresentation
        }
    }

    /// Makes DPoP keys in the Secure Enclave and loads them back; loads software keys stored
    /// before (``SoftwareDPoPKeys``) so accounts signed in earlier keep working.
    public struct SecureEnclaveDPoPKeys: DPoPKeyFactory {
        /// Whether this device has a Secure Enclave.
        public static var isAvailable: Bool { SecureEnclave.isAvailable }

        /// The factory.
        public init() {}

        /// A new key in the Secure Enclave.
        public func makeKey() throws -> any DPoPKey {
            SecureEnclaveDPoPKey(key: try SecureEnclave.P256.Signing.PrivateKey())
        }

        /// The key stored as `material`: an enclave key, or a software key stored before.
        public func key(from material: DPoPKeyMaterial) throws -> any DPoPKey {
            guard material.kind == SecureEnclaveDPoPKey.kind else { return try SoftwareDPoPKeys().key(from: material) }
            return SecureEnclaveDPoPKey(key: try SecureEnclave.P256.Signing.PrivateKey(dataRepresentation: material.data))
        }
    }
#endif

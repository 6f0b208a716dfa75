import Foundation

/// Authenticator data (WebAuthn Level 3 §6.1): what the authenticator signs besides the client
/// data hash. Parsed strictly: the fixed 37 bytes, then the attested credential data when `AT`
/// is set (§6.5.1: AAGUID, credential id length and id, the COSE public key), then the
/// extensions map when `ED` is set, and nothing after.
public struct AuthenticatorData: Sendable, Equatable {
    /// §6.1 flags.
    public struct Flags: OptionSet, Sendable, Equatable {
        /// The flags byte as written (byte 32 of the authenticator data); reserved bits are kept.
        public let rawValue: UInt8
        /// Flags from a flags byte.
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        /// User present.
        public static let userPresent = Flags(rawValue: 0x01)
        /// User verified.
        public static let userVerified = Flags(rawValue: 0x04)
        /// Backup eligible.
        public static let backupEligible = Flags(rawValue: 0x08)
        /// Backed up.
        public static let backedUp = Flags(rawValue: 0x10)
        /// Attested credential data included.
        public static let attestedCredentialData = Flags(rawValue: 0x40)
        /// Extension data included.
        public static let extensionData = Flags(rawValue: 0x80)
    }

    /// §6.5.1.
    public struct AttestedCredential: Sendable, Equatable {
        /// §6.5.1 `aaguid`: 16 bytes naming the authenticator model (Sesame's software authenticator:
        /// `WebAuthn.softwareAuthenticatorAAGUID`); all zeros when the model is not disclosed.
        public var aaguid: Data
        /// §6.5.1 `credentialId`: at most 1023 bytes; what the relying party stores and later lists
        /// in `allowCredentials`.
        public var credentialID: Data
        /// §6.5.1 `credentialPublicKey` (COSE_Key, §6.5.1.1): the key assertions are verified with.
        public var publicKey: COSEKey

        /// Attested credential data from its members.
        public init(aaguid: Data, credentialID: Data, publicKey: COSEKey) {
            self.aaguid = aaguid
            self.credentialID = credentialID
            self.publicKey = publicKey
        }
    }

    /// SHA-256 of the RP ID.
    public var rpIDHash: Data
    /// §6.1 `flags`: user presence and verification, backup state, and which optional parts follow.
    public var flags: Flags
    /// §6.1 `signCount`: the signature counter; 0 from an authenticator that keeps none (§6.1.1).
    public var signCount: UInt32
    /// §6.5.1 attested credential data: present when the `AT` flag is set (a registration).
    public var attestedCredential: AttestedCredential?
    /// §6.1 `extensions`: the authenticator extension outputs (a CBOR map), present when the `ED`
    /// flag is set.
    package var extensions: CBOR?
    /// The bytes as received (they are what the signature covers).
    public var raw: Data

    /// Credential ids are at most 1023 bytes (§6.5.1).
    public static let maximumCredentialIDLength = 1023

    /// Parses authenticator data bytes, throwing the first rule they break.
    public init(_ data: Data) throws(AuthenticatorDataError) {
        let bytes = [UInt8](data)
        guard bytes.count >= 37 else { throw .tooShort }
        rpIDHash = Data(bytes[0..<32])
        flags = Flags(rawValue: bytes[32])
        signCount = bytes[33..<37].reduce(0) { $0 << 8 | UInt32($1) }
        raw = data
        var offset = 37
        if flags.contains(.attestedCredentialData) {
            guard bytes.count >= offset + 18 else { throw .tooShort }
            let aaguid = Data(bytes[offset..<(offset + 16)])
            let length = Int(bytes[offset + 16]) << 8 | Int(bytes[offset + 17])
            offset += 18
            guard length <= Self.maximumCredentialIDLength else { throw .credentialIDTooLong }
            guard bytes.count >= offset + length else { throw .tooShort }
            let credentialID = Data(bytes[offset..<(offset + length)])
            offset += length
            let key: CBOR
            let used: Int
            do {
                (key, used) = try CBORDecoder().decodePrefix(Data(bytes[offset...]))
            } catch {
                throw .malformedPublicKey(error.description)
            }
            offset += used
            do {
                attestedCredential = AttestedCredential(aaguid: aaguid, credentialID: credentialID, publicKey: try COSEKey(key))
            } catch {
                throw .unsupportedPublicKey(error)
            }
        }
        if flags.contains(.extensionData) {
            do {
                let (item, used) = try CBORDecoder().decodePrefix(Data(bytes[offset...]))
                guard case .map = item else { throw AuthenticatorDataError.malformedExtensions("not a map") }
                extensions = item
                offset += used
            } catch let error as CBORError {
                throw .malformedExtensions(error.description)
            } catch {
                throw .malformedExtensions("not a map")
            }
        }
        guard offset == bytes.count else { throw .trailingBytes }
    }
}

/// Why authenticator data was refused.
public enum AuthenticatorDataError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Fewer bytes than the 37 fixed ones, or than the flags announce.
    case tooShort
    /// A credential id longer than `maximumCredentialIDLength` (1023) bytes.
    case credentialIDTooLong
    /// The credential public key is not well-formed CBOR; the detail is the decoder's reason.
    case malformedPublicKey(String)
    /// The credential public key is CBOR but not a COSE_Key Sesame accepts.
    case unsupportedPublicKey(COSEKeyError)
    /// The `ED` flag is set but no well-formed CBOR map follows; the detail says why.
    case malformedExtensions(String)
    /// Bytes follow the last member the flags announce.
    case trailingBytes

    /// The rule broken, for logs and error messages.
    public var description: String {
        switch self {
        case .tooShort: "the authenticator data is shorter than its flags say"
        case .credentialIDTooLong: "the credential id is longer than 1023 bytes"
        case .malformedPublicKey(let detail): "the credential public key is not CBOR: \(detail)"
        case .unsupportedPublicKey(let error): error.description
        case .malformedExtensions(let detail): "the extensions are not a CBOR map: \(detail)"
        case .trailingBytes: "bytes follow the authenticator data's last member"
        }
    }
}

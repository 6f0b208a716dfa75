import Foundation

/// §6.5.4 the attestation object: a CBOR map of `fmt` (text), `attStmt` (map) and `authData`
/// (bytes), decoded strictly (``CBORDecoder``'s bounds; no other members; `authData` parsed by
/// ``AuthenticatorData``).
public struct AttestationObject: Sendable, Equatable {
    /// §6.5.4 `fmt`: the attestation statement format identifier (§8: `packed`, `none`, `apple`, …).
    public var format: String
    /// §6.5.4 `attStmt`: the format's attestation statement, a CBOR map, checked by that format's
    /// verification procedure.
    package var statement: CBOR
    /// §6.5.4 `authData`, parsed; its attested credential data holds the new credential.
    public var authenticatorData: AuthenticatorData

    /// Parses attestation object bytes (a registration's base64url-decoded `attestationObject`).
    public init(_ data: Data) throws(AttestationObjectError) {
        let item: CBOR
        do {
            item = try CBORDecoder().decode(data)
        } catch {
            throw .malformed(error.description)
        }
        guard case .map(let pairs) = item else { throw .malformed("the attestation object is not a CBOR map") }
        guard pairs.allSatisfy({ [.text("fmt"), .text("attStmt"), .text("authData")].contains($0.key) }) else {
            throw .malformed("the attestation object has members other than fmt, attStmt and authData")
        }
        guard case .text(let format) = item[.text("fmt")] else { throw .malformed("fmt is missing or not text") }
        guard let statement = item[.text("attStmt")], case .map = statement else {
            throw .malformed("attStmt is missing or not a map")
        }
        guard case .bytes(let raw) = item[.text("authData")] else { throw .malformed("authData is missing or not bytes") }
        do {
            authenticatorData = try AuthenticatorData(raw)
        } catch {
            throw .authenticatorData(error)
        }
        self.format = format
        self.statement = statement
    }

    /// Encodes (the software authenticator and tests).
    package static func encode(format: String, statement: CBOR, authenticatorData: Data) -> Data {
        CBOREncoder.encode(
            .map([(.text("fmt"), .text(format)), (.text("attStmt"), statement), (.text("authData"), .bytes(authenticatorData))]))
    }
}

/// Why an attestation object was refused.
public enum AttestationObjectError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Not a CBOR map of exactly `fmt` (text), `attStmt` (map) and `authData` (bytes); the detail
    /// says what is wrong.
    case malformed(String)
    /// `authData` is not valid authenticator data (§6.1).
    case authenticatorData(AuthenticatorDataError)

    /// The rule broken, for logs and error messages.
    public var description: String {
        switch self {
        case .malformed(let detail): detail
        case .authenticatorData(let error): error.description
        }
    }
}

extension AuthenticatorData {
    /// The bytes of authenticator data (§6.1), for authenticators and tests.
    public static func encode(
        rpIDHash: Data, flags: Flags, signCount: UInt32, credential: AttestedCredential? = nil
    ) -> Data {
        var out = [UInt8](rpIDHash)
        var flags = flags
        if credential != nil { flags.insert(.attestedCredentialData) } else { flags.remove(.attestedCredentialData) }
        out.append(flags.rawValue)
        out += [UInt8(signCount >> 24 & 0xff), UInt8(signCount >> 16 & 0xff), UInt8(signCount >> 8 & 0xff), UInt8(signCount & 0xff)]
        if let credential {
            out += credential.aaguid
            out += [UInt8(credential.credentialID.count >> 8), UInt8(credential.credentialID.count & 0xff)]
            out += credential.credentialID
            out += CBOREncoder.encode(credential.publicKey.cbor)
        }
        return Data(out)
    }
}

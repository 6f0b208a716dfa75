import Crypto
import Foundation
import SesameProtocol

/// The on-disk format of one ``EncryptedFileCredentialStore`` record (a versioned
/// format).
///
/// Version 1 layout:
///
/// ```
/// "SSM" | 0x01 | AES-GCM combined box = nonce (12) | ciphertext | tag (16)
/// ```
///
/// The 4-byte header and the record's key name are the AES-GCM *additional authenticated data*
/// (NIST SP 800-38D §5.2.1), so a file renamed to another key, or whose version byte was edited,
/// fails authentication instead of being read as some other record.
enum CredentialFileFormat {
    /// `"SSM"`: marks a Sesame credential record.
    static let magic: [UInt8] = Array("SSM".utf8)
    /// The version this build writes.
    static let currentVersion: UInt8 = 1
    /// Magic plus version byte.
    static let headerLength = 4
    /// AES-GCM nonce (12) + tag (16): the smallest valid box, for an empty record.
    static let minimumBoxLength = 12 + 16

    /// Why a file could not be opened. The text goes into
    /// ``CredentialStoreError/recordRemoved(key:reason:)`` and never contains record contents.
    enum DecodeFailure: Error, Equatable, CustomStringConvertible {
        case notACredentialRecord
        case unknownVersion(UInt8)
        case truncated
        case authenticationFailed

        var description: String {
            switch self {
            case .notACredentialRecord: "not a Sesame credential record"
            case .unknownVersion(let version):
                "unknown record format version \(version); it was written by a newer or other app"
            case .truncated: "the record is truncated"
            case .authenticationFailed:
                "decryption failed: the record was written with another key, renamed or tampered with"
            }
        }
    }

    /// Encrypts `plaintext` as the record named `name`.
    static func seal(_ plaintext: Data, name: String, using key: SymmetricKey) throws(CredentialStoreError) -> Data {
        let header = magic + [currentVersion]
        do {
            let box = try AES.GCM.seal(plaintext, using: key, authenticating: header + Array(name.utf8))
            guard let combined = box.combined else {
                throw CredentialStoreError.unavailable("AES-GCM produced no combined box")
            }
            return Data(header) + combined
        } catch let error as CredentialStoreError {
            throw error
        } catch {
            throw .unavailable("could not encrypt the record: \(error)")
        }
    }

    /// Decrypts a record file's bytes, checking that it belongs to `name`.
    static func open(_ file: Data, name: String, using key: SymmetricKey) -> Result<Data, DecodeFailure> {
        let bytes = [UInt8](file)
        guard bytes.count >= magic.count, Array(bytes[0..<magic.count]) == magic else {
            return .failure(.notACredentialRecord)
        }
        guard bytes.count >= headerLength else { return .failure(.truncated) }
        let version = bytes[magic.count]
        guard version == currentVersion else { return .failure(.unknownVersion(version)) }
        guard bytes.count >= headerLength + minimumBoxLength else { return .failure(.truncated) }
        let header = Array(bytes[0..<headerLength])
        do {
            let box = try AES.GCM.SealedBox(combined: bytes[headerLength...])
            return .success(try AES.GCM.open(box, using: key, authenticating: header + Array(name.utf8)))
        } catch {
            return .failure(.authenticationFailed)
        }
    }
}

/// Maps record keys to file names: `<base64url(key)>.credential`, so any key string is a safe,
/// reversible file name. Temporary files start with a dot and end in `.tmp`.
enum CredentialFileName {
    static let recordSuffix = ".credential"
    static let temporarySuffix = ".tmp"
    /// `NAME_MAX` is 255 on Linux and macOS; base64url of 160 bytes is 214 characters, which
    /// leaves room for the suffix and the temporary-file decoration.
    static let maximumKeyBytes = 160

    /// The file name for `key`.
    static func fileName(for key: String) throws(CredentialStoreError) -> String {
        let utf8 = Array(key.utf8)
        guard !utf8.isEmpty else {
            throw .unavailable("a record key must not be empty; pass a non-empty key")
        }
        guard utf8.count <= maximumKeyBytes else {
            throw .unavailable(
                "the record key is \(utf8.count) bytes long; keys of at most \(maximumKeyBytes) UTF-8 bytes fit in a file name"
            )
        }
        return Base64URL.encode(utf8) + recordSuffix
    }

    /// The key a record file name stands for, or `nil` for temporary and foreign files.
    static func key(forFileName fileName: String) -> String? {
        guard !fileName.hasPrefix("."), fileName.hasSuffix(recordSuffix) else { return nil }
        let encoded = String(fileName.dropLast(recordSuffix.count))
        guard !encoded.isEmpty, let bytes = Base64URL.decode(encoded) else { return nil }
        guard let key = String(bytes: bytes, encoding: .utf8), Base64URL.encode(Array(key.utf8)) == encoded else {
            return nil
        }
        return key
    }

    /// A fresh temporary name next to the record, for write-then-rename.
    static func temporaryName(for fileName: String) -> String {
        "." + fileName + "." + SecureRandom.token(byteCount: 9) + temporarySuffix
    }

    static func isTemporary(_ fileName: String) -> Bool {
        fileName.hasPrefix(".") && fileName.hasSuffix(temporarySuffix)
    }
}

import Crypto
import Foundation
import SwiftASN1

/// One certificate pin: the SHA-256 hash of a certificate's SubjectPublicKeyInfo, written
/// `sha256/<base64>` as OkHttp's `CertificatePinner`, TrustKit and Android's network security
/// configuration write it (the `pin-sha256` of RFC 7469 §2.4).
///
/// The hash covers the public key and its algorithm, not the certificate: a certificate renewed
/// with the same key keeps its pin. Compute one from a certificate file with
/// `openssl x509 -in cert.pem -pubkey -noout | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary | base64`,
/// or with ``init(certificateDER:)``.
public struct PublicKeyPin: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The 32-byte SHA-256 digest of the DER SubjectPublicKeyInfo.
    public let sha256: Data

    /// The prefix naming the hash function, as OkHttp writes it.
    static let prefix = "sha256/"

    /// Parses `sha256/<base64 of 32 bytes>`; the error says what a pin looks like.
    public init(_ text: String) throws(SesameError) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard trimmed.lowercased().hasPrefix(Self.prefix) else {
            throw .invalidConfiguration(
                "certificate pin \"\(text.prefix(80))\" must start with \"sha256/\" followed by the base64 SHA-256 of the SubjectPublicKeyInfo (RFC 7469 pin-sha256).")
        }
        guard let digest = Data(base64Encoded: String(trimmed.dropFirst(Self.prefix.count))), digest.count == 32 else {
            throw .invalidConfiguration(
                "certificate pin \"\(text.prefix(80))\" is not the base64 of a 32-byte SHA-256 hash; compute it with: openssl x509 -in cert.pem -pubkey -noout | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary | base64")
        }
        sha256 = digest
    }

    /// The pin of a DER-encoded SubjectPublicKeyInfo.
    public init(subjectPublicKeyInfo: some DataProtocol) {
        sha256 = Data(SHA256.hash(data: subjectPublicKeyInfo))
    }

    /// The pin of a DER-encoded X.509 certificate's public key: the hash of the
    /// `subjectPublicKeyInfo` field exactly as the certificate encodes it (RFC 5280 §4.1.2.7).
    public init(certificateDER: some DataProtocol) throws(SesameError) {
        do {
            self.init(subjectPublicKeyInfo: try Self.subjectPublicKeyInfo(of: Array(certificateDER)))
        } catch {
            throw .protocolViolation("the server presented a certificate that is not valid DER X.509 (\(error))")
        }
    }

    /// Certificate ::= SEQUENCE { tbsCertificate, … }; TBSCertificate ::= SEQUENCE { [0] version
    /// OPTIONAL, serialNumber, signature, issuer, validity, subject, subjectPublicKeyInfo, … }.
    private static func subjectPublicKeyInfo(of der: [UInt8]) throws -> ArraySlice<UInt8> {
        let certificate = try DER.parse(der)
        guard case .constructed(let parts) = certificate.content, let tbs = parts.first(where: { _ in true }),
            case .constructed(let fields) = tbs.content
        else { throw ASN1Error.invalidASN1Object(reason: "not a certificate") }
        var fieldList = Array(fields)
        if fieldList.first?.identifier == ASN1Identifier(tagWithNumber: 0, tagClass: .contextSpecific) {
            fieldList.removeFirst()
        }
        guard fieldList.count >= 6, fieldList[5].identifier == .sequence else {
            throw ASN1Error.invalidASN1Object(reason: "no subjectPublicKeyInfo")
        }
        return fieldList[5].encodedBytes
    }

    /// `sha256/<base64>`.
    public var description: String { Self.prefix + sha256.base64EncodedString() }

    /// Decodes the JSON form described above.
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        do {
            try self.init(text)
        } catch {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(codingPath: decoder.codingPath, debugDescription: error.description))
        }
    }

    /// Encodes the JSON form described above.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

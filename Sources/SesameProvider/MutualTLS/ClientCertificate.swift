import Foundation
import SesameProtocol
import X509

/// The certificate a client presented on its TLS connection (RFC 8705 §2), as the server's TLS
/// stack or a trusted TLS-terminating proxy (RFC 9440 `Client-Cert`) handed it on: the leaf
/// and the intermediates that came with it, and whether that chain leads to a CA trusted for
/// client certificates (``ClientCertificateTrust``). Nothing here is a secret: a certificate is
/// public, which is why a token bound to it needs the TLS connection's proof of its key.
package struct ClientCertificate: Sendable {
    /// The leaf certificate.
    package let certificate: Certificate
    /// Its DER encoding, as presented.
    package let der: [UInt8]
    /// The intermediates presented with it (DER), for path validation.
    package let intermediates: [[UInt8]]
    /// Whether the TLS stack already validated the chain to a trusted client CA (RFC 5280
    /// path validation); when `false` ``ClientCertificateTrust`` validates it on demand.
    package let chainTrusted: Bool

    /// Throws when `der` is not an X.509 certificate.
    package init(der: [UInt8], intermediates: [[UInt8]] = [], chainTrusted: Bool = false) throws {
        self.der = der
        self.certificate = try Certificate(derEncoded: der)
        self.intermediates = intermediates
        self.chainTrusted = chainTrusted
    }

    /// RFC 8705 §3.1 `x5t#S256`: what a bound token's `cnf` names.
    package var thumbprint: String { CertificateThumbprint.sha256(der: der) }

    /// Whether the certificate is the one `subject` names (RFC 8705 §2.1.2): the subject DN
    /// compared attribute by attribute (types and values without regard to case), or one SAN
    /// entry of the registered kind equal to the registered value (DNS names and e-mail
    /// addresses without regard to case, IP addresses as bytes).
    package func matches(_ subject: TLSClientAuthSubject) -> Bool {
        switch subject {
        case .subjectDN(let registered):
            guard let expected = DistinguishedNameText.parse(registered) else { return false }
            return expected == DistinguishedNameText.attributes(of: certificate.subject)
        case .dnsName(let name):
            return alternativeNames.contains { if case .dnsName(let value) = $0 { value.lowercased() == name.lowercased() } else { false } }
        case .uri(let uri):
            return alternativeNames.contains { if case .uniformResourceIdentifier(let value) = $0 { value == uri } else { false } }
        case .email(let email):
            return alternativeNames.contains { if case .rfc822Name(let value) = $0 { value.lowercased() == email.lowercased() } else { false } }
        case .ipAddress(let text):
            guard let bytes = IPAddressText.bytes(text) else { return false }
            return alternativeNames.contains { if case .ipAddress(let value) = $0 { Array(value.bytes) == bytes } else { false } }
        }
    }

    private var alternativeNames: [GeneralName] {
        ((try? certificate.extensions.subjectAlternativeNames).flatMap { $0 }).map(Array.init) ?? []
    }
}

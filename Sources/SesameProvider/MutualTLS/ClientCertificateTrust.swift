import Foundation
import SwiftASN1
@_spi(FixedExpiryValidationTime) import X509

/// The certificate authorities trusted to issue client certificates for `tls_client_auth`
/// (RFC 8705 §2.1: the chain is validated "using the trust anchors of the authorization server",
/// `sesame serve --tls-client-ca FILE`). Self-signed certificates (`self_signed_tls_client_auth`,
/// §2.2) are never checked here: their key is what the client registered.
package struct ClientCertificateTrust: Sendable {
    private let roots: [Certificate]
    private let now: @Sendable () -> Date

    /// Trusts `roots` (CA certificates).
    package init(roots: [Certificate], now: @escaping @Sendable () -> Date = Date.init) {
        self.roots = roots
        self.now = now
    }

    /// Trusts the CA certificates of the PEM file at `path`; throws ``ClientCertificateTrustError``
    /// when it cannot be read or holds none.
    package init(pemFile path: String, now: @escaping @Sendable () -> Date = Date.init) throws {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw ClientCertificateTrustError(path: path, reason: "\(error.localizedDescription)")
        }
        let roots: [Certificate]
        do {
            roots = try PEMDocument.parseMultiple(pemString: text).map { try Certificate(pemDocument: $0) }
        } catch {
            throw ClientCertificateTrustError(path: path, reason: "\(error)")
        }
        guard !roots.isEmpty else { throw ClientCertificateTrustError(path: path, reason: "it holds no certificate") }
        self.init(roots: roots, now: now)
    }

    /// Whether `leaf` chains to one of the roots through `intermediates` (DER), valid now
    /// (RFC 5280 §6 path validation).
    package func validates(leaf: Certificate, intermediates: [[UInt8]]) async -> Bool {
        let intermediates = intermediates.compactMap { try? Certificate(derEncoded: $0) }
        var verifier = Verifier(rootCertificates: CertificateStore(roots)) {
            RFC5280Policy(fixedExpiryValidationTime: now())
        }
        if case .validCertificate = await verifier.validate(leaf: leaf, intermediates: CertificateStore(intermediates)) {
            return true
        }
        return false
    }
}

/// The client CA file cannot serve; says which file and why.
package struct ClientCertificateTrustError: Error, Sendable, CustomStringConvertible {
    package let path: String
    package let reason: String

    package var description: String {
        "cannot read the client CA certificates \(path) (\(reason)); give a PEM file with the CA certificates that issue client certificates"
    }
}

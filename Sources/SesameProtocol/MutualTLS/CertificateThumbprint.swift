import Crypto
import Foundation

/// The X.509 certificate SHA-256 thumbprint of RFC 8705 §3.1 (`cnf` member `x5t#S256`): the
/// base64url SHA-256 of the certificate's DER encoding, without padding. A token bound to a
/// client certificate carries it; the authorization server and every resource server compare
/// it with the certificate the request's TLS connection presented.
package enum CertificateThumbprint {
    /// The `x5t#S256` of the certificate whose DER encoding is `der`.
    package static func sha256(der: some DataProtocol) -> String {
        Base64URL.encode(SHA256.hash(data: der))
    }
}

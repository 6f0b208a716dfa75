import Foundation
import SesameProtocol
import SesameStore
import X509
import _CryptoExtras
import Crypto

/// Client authentication with a TLS client certificate (RFC 8705 §2): whether the certificate
/// the connection presented is the one `client` registered.
///
/// - `tls_client_auth` (§2.1): the chain validates to a CA in ``ClientCertificateTrust`` and the
///   certificate's subject DN or one SAN equals the registered ``TLSClientAuthSubject``.
/// - `self_signed_tls_client_auth` (§2.2): the certificate's public key is one of the client's
///   registered keys (`jwks`; a key's `x5c` leaf may name the certificate itself). No CA is
///   involved, so no chain is checked.
///
/// TLS has already proven that the client holds the certificate's private key.
package struct MutualTLSClientAuthentication: Sendable {
    /// The CAs of `tls_client_auth` certificates; `nil`: no client may use that method.
    package let trust: ClientCertificateTrust?

    package init(trust: ClientCertificateTrust?) {
        self.trust = trust
    }

    /// Throws `invalid_client` saying what is wrong when `certificate` does not authenticate
    /// `client` (whose method is one of the two above).
    package func authenticate(_ client: ClientRecord, certificate: ClientCertificate?) async throws(ProviderFailure) {
        guard let certificate else {
            throw ProviderFailure(
                .invalidClient,
                "This client authenticates with \(client.tokenEndpointAuthMethod.rawValue): connect with its TLS client certificate (RFC 8705 section 2).")
        }
        switch client.tokenEndpointAuthMethod {
        case .tlsClientAuth:
            guard let subject = client.tlsClientAuthSubject else {
                throw ProviderFailure(.invalidClient, "This client has no registered certificate subject; register one with tls_client_auth.")
            }
            guard let trust else {
                throw ProviderFailure(
                    .invalidClient, "The server trusts no CA for client certificates (sesame serve --tls-client-ca); tls_client_auth is unavailable.")
            }
            let trusted: Bool
            if certificate.chainTrusted {
                trusted = true
            } else {
                trusted = await trust.validates(leaf: certificate.certificate, intermediates: certificate.intermediates)
            }
            guard trusted else {
                throw ProviderFailure(
                    .invalidClient, "The client certificate does not chain to a CA the server trusts for clients, or it is expired.")
            }
            guard certificate.matches(subject) else {
                throw ProviderFailure(
                    .invalidClient, "The client certificate is not the registered one: its \(subject.metadataName) does not match.")
            }
        case .selfSignedTLSClientAuth:
            guard let jwks = client.jwks, let presented = Self.keyThumbprint(certificate.certificate.publicKey),
                RegisteredKeyThumbprints.of(jwks: jwks).contains(presented)
            else {
                throw ProviderFailure(
                    .invalidClient, "The client certificate's public key is not among the client's registered keys (jwks).")
            }
        default:
            throw ProviderFailure(.invalidClient, "This client does not authenticate with a TLS client certificate.")
        }
    }

    /// The RFC 7638 thumbprint of a certificate's public key (P-256, P-384, RSA, Ed25519).
    static func keyThumbprint(_ key: Certificate.PublicKey) -> String? {
        if let p256 = P256.Signing.PublicKey(key) {
            let point = Array(p256.x963Representation.dropFirst())
            return JWKThumbprint.ec(curve: "P-256", x: Array(point[..<32]), y: Array(point[32...]))
        }
        if let p384 = P384.Signing.PublicKey(key) {
            let point = Array(p384.x963Representation.dropFirst())
            return JWKThumbprint.ec(curve: "P-384", x: Array(point[..<48]), y: Array(point[48...]))
        }
        if let rsa = _RSA.Signing.PublicKey(key), let primitives = try? rsa.getKeyPrimitives() {
            return JWKThumbprint.rsa(modulus: Array(primitives.modulus), exponent: Array(primitives.publicExponent))
        }
        if let ed25519 = Curve25519.Signing.PublicKey(key) {
            return JWKThumbprint.okp(curve: "Ed25519", x: Array(ed25519.rawRepresentation))
        }
        return nil
    }
}

/// The RFC 7638 thumbprints of a registered JSON Web Key Set's public keys, and of the public
/// keys of each key's `x5c` leaf certificate (RFC 7517 §4.7).
enum RegisteredKeyThumbprints {
    static func of(jwks: String) -> Set<String> {
        guard let object = try? JSONSerialization.jsonObject(with: Data(jwks.utf8)) as? [String: Any],
            let keys = object["keys"] as? [[String: Any]]
        else { return [] }
        var thumbprints: Set<String> = []
        for key in keys {
            func bytes(_ member: String) -> [UInt8]? { (key[member] as? String).flatMap { Base64URL.decode($0) }.map { Array($0) } }
            switch key["kty"] as? String {
            case "EC":
                if let curve = key["crv"] as? String, let x = bytes("x"), let y = bytes("y") {
                    thumbprints.insert(JWKThumbprint.ec(curve: curve, x: x, y: y))
                }
            case "RSA":
                if let n = bytes("n"), let e = bytes("e") { thumbprints.insert(JWKThumbprint.rsa(modulus: n, exponent: e)) }
            case "OKP":
                if let curve = key["crv"] as? String, let x = bytes("x") { thumbprints.insert(JWKThumbprint.okp(curve: curve, x: x)) }
            default:
                break
            }
            // RFC 7517 §4.7: x5c entries are base64 (not base64url) DER, the key's certificate first.
            if let chain = key["x5c"] as? [String], let first = chain.first, let der = Data(base64Encoded: first),
                let certificate = try? Certificate(derEncoded: Array(der)),
                let thumbprint = MutualTLSClientAuthentication.keyThumbprint(certificate.publicKey)
            {
                thumbprints.insert(thumbprint)
            }
        }
        return thumbprints
    }
}

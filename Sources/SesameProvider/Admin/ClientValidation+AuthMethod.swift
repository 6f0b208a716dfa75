import Foundation
import SesameProtocol
import SesameStore

extension ClientValidation {
    /// The client's `token_endpoint_auth_method` (RFC 7591 §2), checked against what the client
    /// registered: a secret for `client_secret_*`, keys (`jwks`) for `private_key_jwt` and
    /// `self_signed_tls_client_auth` (RFC 8705 §2.2), a certificate subject for
    /// `tls_client_auth` (§2.1.2), nothing for `none`. Without a name: `tls_client_auth` when a
    /// subject is given, `private_key_jwt` with keys, else `client_secret_basic` or `none`.
    package static func checkAuthMethod(
        _ name: String?, confidential: Bool, hasKeys: Bool = false, subject: TLSClientAuthSubject? = nil
    ) throws(Issue) -> ClientAuthenticationMethod {
        let method: ClientAuthenticationMethod
        if let name {
            guard let named = ClientAuthenticationMethod(rawValue: name) else {
                let supported = ClientAuthenticationMethod.allCases.map(\.rawValue).joined(separator: ", ")
                throw Issue(field: "token_endpoint_auth_method", reason: "\"\(name)\" is unknown; use one of \(supported)")
            }
            method = named
        } else if subject != nil {
            method = .tlsClientAuth
        } else if hasKeys {
            method = .privateKeyJWT
        } else {
            return confidential ? .clientSecretBasic : .none
        }
        if subject != nil, method != .tlsClientAuth {
            throw Issue(
                field: subject?.metadataName ?? "tls_client_auth_subject_dn",
                reason: "a certificate subject is registered only for tls_client_auth (RFC 8705 section 2.1.2); drop it or use that method")
        }
        switch method {
        case .tlsClientAuth:
            guard subject != nil else {
                throw Issue(
                    field: "tls_client_auth_subject_dn",
                    reason: "tls_client_auth needs the certificate's subject DN or one SAN (RFC 8705 section 2.1.2); give exactly one")
            }
            guard !hasKeys else {
                throw Issue(field: "jwks", reason: "a tls_client_auth client proves itself with its certificate; drop the keys")
            }
        case .privateKeyJWT, .selfSignedTLSClientAuth:
            guard hasKeys else {
                throw Issue(
                    field: "token_endpoint_auth_method",
                    reason: "\(method.rawValue) needs the client's public keys (jwks); register them")
            }
        case .none, .clientSecretBasic, .clientSecretPost:
            if hasKeys {
                throw Issue(
                    field: "token_endpoint_auth_method",
                    reason: "registered keys (jwks) go with private_key_jwt or self_signed_tls_client_auth; give one of those or drop the keys")
            }
        }
        if method.isMutualTLS || method == .privateKeyJWT {
            guard !confidential else {
                throw Issue(field: "client_secret", reason: "a \(method.rawValue) client has no secret; drop it")
            }
            return method
        }
        if confidential, method == .none {
            throw Issue(
                field: "token_endpoint_auth_method",
                reason: "a confidential client cannot use \"none\"; use client_secret_basic or client_secret_post")
        }
        if !confidential, method != .none {
            throw Issue(
                field: "token_endpoint_auth_method",
                reason: "a public client has no secret, so it must use \"none\"; give the client a secret to make it confidential")
        }
        return method
    }

    /// A registered certificate subject (RFC 8705 §2.1.2): non-empty, at most 1,024 characters,
    /// and for a DN, a distinguished name in RFC 4514 string form.
    package static func checkTLSClientAuthSubject(_ subject: TLSClientAuthSubject) throws(Issue) {
        let value = subject.value
        guard !value.trimmingCharacters(in: .whitespaces).isEmpty, value.count <= 1024 else {
            throw Issue(field: subject.metadataName, reason: "must be 1 to 1024 characters")
        }
        switch subject {
        case .subjectDN(let dn):
            guard DistinguishedNameText.parse(dn) != nil else {
                throw Issue(
                    field: subject.metadataName,
                    reason: "\"\(dn)\" is not a distinguished name in RFC 4514 form; write it like CN=payments,O=Example Bank,C=GB")
            }
        case .ipAddress(let text):
            guard IPAddressText.bytes(text) != nil else {
                throw Issue(field: subject.metadataName, reason: "\"\(text)\" is not an IPv4 or IPv6 address")
            }
        case .dnsName, .uri, .email:
            guard !value.contains(where: { $0.isWhitespace }) else {
                throw Issue(field: subject.metadataName, reason: "must not contain spaces")
            }
        }
    }
}

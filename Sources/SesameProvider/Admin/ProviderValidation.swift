import SesameStore
import Foundation
import SesameProtocol

/// The rules a federation provider's registration must meet (`sesame provider add`, the seed
/// file's `providers`); each failure names the field.
public enum ProviderValidation {
    /// Issuers Sesame knows, used when the registration gives none.
    package static let knownIssuers: [Federation.Kind: String] = [
        .google: "https://accounts.google.com", .apple: "https://appleid.apple.com", .facebook: "https://www.facebook.com",
    ]
    package static let knownJWKS: [Federation.Kind: String] = [
        .google: "https://www.googleapis.com/oauth2/v3/certs", .apple: "https://appleid.apple.com/auth/keys",
    ]

    /// Validates and completes a registration (known issuers and key URLs filled in).
    public static func check(_ provider: FederationProviderRecord) throws(ClientValidation.Issue) -> FederationProviderRecord {
        var provider = provider
        do {
            try ClientValidation.checkClientID(provider.id)
        } catch {
            throw ClientValidation.Issue(field: "id", reason: error.reason.replacingOccurrences(of: "client_id", with: "id"))
        }
        if provider.issuer.isEmpty, let known = knownIssuers[provider.kind] { provider.issuer = known }
        if provider.kind == .facebook { return try checkFacebook(provider) }
        if provider.jwksURI == nil, provider.publicKeyPEM == nil { provider.jwksURI = knownJWKS[provider.kind] }
        try checkURL(provider.issuer, field: "issuer")
        guard !provider.audiences.isEmpty, provider.audiences.allSatisfy({ !$0.isEmpty && $0.count <= 256 }) else {
            throw ClientValidation.Issue(
                field: "audiences", reason: "give at least one: the client id the provider issues tokens to (Apple: the app's bundle id)")
        }
        switch (provider.jwksURI, provider.publicKeyPEM) {
        case (let uri?, nil): try checkURL(uri, field: "jwks_uri")
        case (nil, let pem?):
            guard pem.contains("-----BEGIN PUBLIC KEY-----") else {
                throw ClientValidation.Issue(field: "public_key", reason: "is not a PEM public key (-----BEGIN PUBLIC KEY-----)")
            }
        case (nil, nil):
            throw ClientValidation.Issue(field: "jwks_uri", reason: "give the provider's jwks_uri or a public_key PEM")
        case (.some, .some):
            throw ClientValidation.Issue(field: "public_key", reason: "give jwks_uri or public_key, not both")
        }
        guard !provider.requiredClaim.isEmpty, provider.requiredClaim.count <= 64 else {
            throw ClientValidation.Issue(field: "required_claim", reason: "must name a claim, e.g. email")
        }
        return provider
    }

    /// Facebook: no keys; the app id (an audience and the broker client) and the endpoints.
    package static func checkFacebook(_ provider: FederationProviderRecord) throws(ClientValidation.Issue) -> FederationProviderRecord {
        var provider = provider
        provider.inspectionEndpoint = provider.inspectionEndpoint ?? "https://graph.facebook.com/debug_token"
        provider.profileEndpoint = provider.profileEndpoint ?? "https://graph.facebook.com/me"
        try checkURL(provider.inspectionEndpoint ?? "", field: "inspection_endpoint")
        try checkURL(provider.profileEndpoint ?? "", field: "profile_endpoint")
        guard !provider.audiences.isEmpty else {
            throw ClientValidation.Issue(field: "audiences", reason: "give the Facebook app id")
        }
        guard provider.brokerClientID != nil else {
            throw ClientValidation.Issue(
                field: "broker_client_id", reason: "Facebook tokens are inspected with the app's id and secret; give both")
        }
        return provider
    }

    /// `https`, or `http` on a loopback host (development).
    package static func checkURL(_ text: String, field: String) throws(ClientValidation.Issue) {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), let host = url.host, !host.isEmpty,
            url.fragment == nil
        else { throw ClientValidation.Issue(field: field, reason: "\"\(text)\" is not an absolute URL") }
        let loopback = host == "127.0.0.1" || host == "localhost" || host == "::1" || host.hasPrefix("127.")
        guard scheme == "https" || (scheme == "http" && loopback) else {
            throw ClientValidation.Issue(field: field, reason: "\"\(text)\" must use https (http only on a loopback host)")
        }
    }
}

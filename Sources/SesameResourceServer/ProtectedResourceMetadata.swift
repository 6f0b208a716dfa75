import Foundation
import SesameProtocol

/// An API's OAuth 2.0 Protected Resource Metadata (RFC 9728): what a client that only knows the
/// API's URL needs to get a token for it, served at `/.well-known/oauth-protected-resource`
/// (§3) and pointed to from every 401 challenge by `resource_metadata` (§5.1). AI agents
/// speaking the Model Context Protocol, command-line tools and partner integrations start here.
///
/// ```json
/// { "resource": "https://api.example.com", "authorization_servers": ["https://id.example.com"],
///   "scopes_supported": ["orders:read"], "bearer_methods_supported": ["header"],
///   "dpop_signing_alg_values_supported": ["ES256"] }
/// ```
public struct ProtectedResourceMetadata: Codable, Sendable, Equatable {
    /// The API's resource identifier (§2): an `https` URL without a fragment (`http` on loopback
    /// hosts for development); the `aud` its tokens carry and the `resource` clients ask for.
    public var resource: String
    /// The issuers of the authorization servers that issue tokens for it (§2).
    public var authorizationServers: [String]
    /// The scopes the API understands, for clients to ask for (§2).
    public var scopesSupported: [String]?
    /// How the token may be sent: `header` only (RFC 6750 §2.1); never a query or form field.
    public var bearerMethodsSupported: [String]
    /// The DPoP proof algorithms accepted (RFC 9449 §5.1), when the API takes DPoP-bound tokens.
    public var dpopSigningAlgValuesSupported: [String]?
    /// Whether tokens bound to a client certificate are expected (RFC 8705 §3.3), when it does.
    public var tlsClientCertificateBoundAccessTokens: Bool?
    /// A human-readable name of the API (§2).
    public var resourceName: String?
    /// A page documenting the API for developers (§2).
    public var resourceDocumentation: String?

    /// Metadata for the API `resource` whose tokens `authorizationServers` issue.
    public init(
        resource: String, authorizationServers: [String], scopesSupported: [String]? = nil,
        dpopSigningAlgValuesSupported: [String]? = DPoPValidation.defaultAlgorithms,
        tlsClientCertificateBoundAccessTokens: Bool? = nil, resourceName: String? = nil,
        resourceDocumentation: String? = nil
    ) {
        self.resource = resource
        self.authorizationServers = authorizationServers
        self.scopesSupported = scopesSupported
        bearerMethodsSupported = ["header"]
        self.dpopSigningAlgValuesSupported = dpopSigningAlgValuesSupported
        self.tlsClientCertificateBoundAccessTokens = tlsClientCertificateBoundAccessTokens
        self.resourceName = resourceName
        self.resourceDocumentation = resourceDocumentation
    }

    enum CodingKeys: String, CodingKey {
        case resource
        case authorizationServers = "authorization_servers"
        case scopesSupported = "scopes_supported"
        case bearerMethodsSupported = "bearer_methods_supported"
        case dpopSigningAlgValuesSupported = "dpop_signing_alg_values_supported"
        case tlsClientCertificateBoundAccessTokens = "tls_client_certificate_bound_access_tokens"
        case resourceName = "resource_name"
        case resourceDocumentation = "resource_documentation"
    }

    /// The well-known path's prefix (§3).
    public static let wellKnownPrefix = "/.well-known/oauth-protected-resource"

    /// The path the metadata is served at (§3.1): the well-known prefix, then the resource's own
    /// path (`https://api.example.com/orders` → `/.well-known/oauth-protected-resource/orders`).
    public var wellKnownPath: String {
        var path = URLComponents(string: resource)?.percentEncodedPath ?? ""
        while path.hasSuffix("/") { path.removeLast() }
        return Self.wellKnownPrefix + path
    }

    /// The metadata's URL, for `resource_metadata` in challenges (§5.1).
    public var metadataURL: String {
        guard var components = URLComponents(string: resource) else { return resource }
        components.percentEncodedPath = wellKnownPath
        components.query = nil
        components.fragment = nil
        return components.string ?? resource
    }

    /// The rules of §2 and §3.3 the metadata must meet to be served; the error says which.
    public func validate() throws(ProtectedResourceMetadataError) {
        guard let url = URLComponents(string: resource), let scheme = url.scheme?.lowercased(), let host = url.host,
            !host.isEmpty, url.fragment == nil, url.query == nil
        else {
            throw ProtectedResourceMetadataError("resource \"\(resource.prefix(100))\" must be an absolute URL without query or fragment (RFC 9728 section 2)")
        }
        guard scheme == "https" || (scheme == "http" && LoopbackHost.contains(host)) else {
            throw ProtectedResourceMetadataError("resource \"\(resource.prefix(100))\" must use https (http only on a loopback host)")
        }
        guard !authorizationServers.isEmpty, authorizationServers.allSatisfy({ URL(string: $0)?.host != nil }) else {
            throw ProtectedResourceMetadataError("authorization_servers must name at least one issuer URL")
        }
    }
}

/// Protected resource metadata that cannot be served as given.
public struct ProtectedResourceMetadataError: Error, Sendable, CustomStringConvertible {
    /// What is wrong and what to do.
    public let description: String
    init(_ description: String) { self.description = description }
}

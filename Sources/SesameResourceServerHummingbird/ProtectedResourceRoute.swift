import Foundation
import HTTPTypes
import Hummingbird
import SesameResourceServer

extension Router where Context: AccessTokenRequestContext {
    /// Makes an API a protected resource in one line (RFC 9728): serves `metadata` at its
    /// well-known path (§3, `GET /.well-known/oauth-protected-resource[/path]`, public, cacheable
    /// for an hour) and returns the ``AccessTokenMiddleware`` that guards the API with
    /// `validator`, whose 401 and 403 challenges name the metadata in `resource_metadata` (§5.1).
    /// The validator's `audience` should be `metadata.resource`, so tokens made for another API
    /// are refused (RFC 8707).
    ///
    /// ```swift
    /// let metadata = ProtectedResourceMetadata(
    ///     resource: "https://api.example.com", authorizationServers: ["https://id.example.com"], scopesSupported: ["orders:read"])
    /// let validator = AccessTokenValidator(issuer: "https://id.example.com", audience: metadata.resource)
    /// router.group("v1").add(middleware: try router.addProtectedResource(metadata, validator: validator))
    /// ```
    ///
    /// Throws ``ProtectedResourceMetadataError`` for metadata RFC 9728 does not allow (a
    /// non-https resource outside loopback, a fragment, no authorization server).
    public func addProtectedResource(
        _ metadata: ProtectedResourceMetadata, validator: AccessTokenValidator, requiredScopes: [String] = [],
        realm: String? = nil, publicOrigin: String? = nil, certificateProxies: Set<String> = []
    ) throws(ProtectedResourceMetadataError) -> AccessTokenMiddleware<Context> {
        try metadata.validate()
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let body = (try? encoder.encode(metadata)) ?? Data("{}".utf8)
        get(RouterPath(metadata.wellKnownPath)) { _, _ in
            var headers = HTTPFields()
            headers[.contentType] = "application/json"
            headers[.cacheControl] = "public, max-age=3600"
            return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
        }
        return AccessTokenMiddleware(
            validator: validator, requiredScopes: requiredScopes, realm: realm, publicOrigin: publicOrigin,
            certificateProxies: certificateProxies, resourceMetadata: metadata)
    }
}

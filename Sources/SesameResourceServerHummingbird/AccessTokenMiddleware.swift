import Foundation
import HTTPTypes
import Hummingbird
import SesameResourceServer

/// Requires a valid Sesame access token on every request it guards (RFC 6750 §2.1
/// `Authorization: Bearer`, or for a DPoP-bound token RFC 9449 §7.1 `Authorization: DPoP` with a
/// proof), and the given scopes; puts the verified token in the context.
///
/// Refusals are answered here, never passed on: `401` with `WWW-Authenticate: Bearer …` for a
/// missing or invalid token, `403 insufficient_scope` naming the scopes, `400 invalid_request`
/// for a malformed header, `503` when the issuer's keys cannot be fetched. The body is the
/// RFC 6749 §5.2 JSON error shape; the token is never logged.
///
/// ```swift
/// let validator = AccessTokenValidator(issuer: "https://id.example.com", audience: "https://id.example.com")
/// let router = Router(context: ResourceRequestContext.self)
/// router.group("v1").add(middleware: AccessTokenMiddleware(validator: validator))
///     .get("me") { _, context in try context.requireAccessToken().subject }
/// ```
public struct AccessTokenMiddleware<Context: AccessTokenRequestContext>: RouterMiddleware {
    /// Checks each request's token.
    public let validator: AccessTokenValidator
    /// Scopes every request through this middleware needs.
    public let requiredScopes: [String]
    /// The `realm` of the challenge (RFC 6750 §3), if the API names one.
    public let realm: String?
    /// The API's origin as clients address it (`https://api.example.com`), for the `htu` of DPoP
    /// proofs (RFC 9449 §4.3); `nil`: `http://` and the request's `Host` header, right for an API
    /// reached directly, not behind a TLS proxy.
    public let publicOrigin: String?
    /// The addresses of TLS-terminating proxies whose RFC 9440 `Client-Cert` header names the
    /// client certificate, for certificate-bound tokens (RFC 8705 §3); from any other peer the
    /// header is ignored and the certificate is the connection's own
    /// (``AccessTokenRequestContext/tlsClientCertificate()``).
    public let certificateProxies: Set<String>
    /// The API's protected resource metadata (RFC 9728), whose URL every challenge names in
    /// `resource_metadata` (§5.1); serve it with `Router.addProtectedResource(_:validator:)`.
    public let resourceMetadata: ProtectedResourceMetadata?

    /// Guards the routes behind it with `validator`, requiring `requiredScopes` on every request.
    public init(
        validator: AccessTokenValidator, requiredScopes: [String] = [], realm: String? = nil, publicOrigin: String? = nil,
        certificateProxies: Set<String> = [], resourceMetadata: ProtectedResourceMetadata? = nil
    ) {
        self.validator = validator
        self.resourceMetadata = resourceMetadata
        self.requiredScopes = requiredScopes
        self.realm = realm
        self.certificateProxies = certificateProxies
        var origin = publicOrigin
        while origin?.hasSuffix("/") == true { origin?.removeLast() }
        self.publicOrigin = origin
    }

    /// Validates the request's token and passes the request on with it in the context, or
    /// answers the refusal.
    public func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var context = context
        do {
            context.accessToken = try await validator.authenticate(
                authorization: request.headers[.authorization], dpopProofs: request.headers[values: Self.dpop],
                method: request.method.rawValue, url: url(of: request), requiredScopes: requiredScopes,
                clientCertificate: { await clientCertificate(request, context: context) })
        } catch {
            context.logger.info(
                "access token refused", metadata: ["rule": "\(error.rule)", "reason": "\(error.message)"])
            return BearerRefusal.response(for: error, realm: realm, resourceMetadata: resourceMetadata?.metadataURL)
        }
        var response = try await next(request, context)
        // RFC 9449 §9: with nonces, every answer to a DPoP request carries the next one, so the
        // client is not refused when its nonce expires.
        if let nonces = validator.dpop.nonces, context.accessToken?.confirmationThumbprint != nil {
            response.headers[Self.dpopNonce] = nonces.issue()
        }
        return response
    }

    /// RFC 9449 §4.1 `DPoP`.
    static var dpop: HTTPTypes.HTTPField.Name { HTTPTypes.HTTPField.Name("DPoP")! }
    /// RFC 9449 §8.1 `DPoP-Nonce`.
    static var dpopNonce: HTTPTypes.HTTPField.Name { HTTPTypes.HTTPField.Name("DPoP-Nonce")! }

    /// RFC 9440 §2.2 `Client-Cert`.
    static var clientCert: HTTPTypes.HTTPField.Name { HTTPTypes.HTTPField.Name("Client-Cert")! }

    /// The request's client certificate: a trusted proxy's `Client-Cert` (`:base64 DER:`), or
    /// the connection's.
    private func clientCertificate(_ request: Request, context: Context) async -> [UInt8]? {
        if !certificateProxies.isEmpty, let peer = (context as? any RemoteAddressRequestContext)?.remoteAddress?.ipAddress,
            certificateProxies.contains(peer)
        {
            guard let header = request.headers[Self.clientCert]?.trimmingCharacters(in: .whitespaces),
                header.count > 2, header.hasPrefix(":"), header.hasSuffix(":")
            else { return nil }
            return Data(base64Encoded: String(header.dropFirst().dropLast())).map { Array($0) }
        }
        return await context.tlsClientCertificate()
    }

    /// The URL the client addressed: the public origin (or the `Host`) and the path.
    private func url(of request: Request) -> String {
        let origin = publicOrigin ?? "http://" + (request.head.authority ?? "localhost")
        return origin + request.uri.path
    }
}

/// Requires scopes of a token ``AccessTokenMiddleware`` already verified: for a route group that
/// needs more than the API as a whole (`router.group("admin").add(middleware: RequireScopes(["admin"]))`).
public struct RequireScopes<Context: AccessTokenRequestContext>: RouterMiddleware {
    /// The scopes every request through this middleware needs.
    public let scopes: [String]
    /// The `realm` of the challenge, if the API names one.
    public let realm: String?
    /// The URL of the API's protected resource metadata for the challenge (RFC 9728 §5.1), if served.
    public let resourceMetadata: String?

    /// Requires `scopes` of the verified token.
    public init(_ scopes: [String], realm: String? = nil, resourceMetadata: ProtectedResourceMetadata? = nil) {
        self.scopes = scopes
        self.realm = realm
        self.resourceMetadata = resourceMetadata?.metadataURL
    }

    /// Passes the request on when its token has the scopes, else answers 403 `insufficient_scope`.
    public func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard let token = context.accessToken else {
            return BearerRefusal.response(
                for: AccessTokenError(.missing, "RequireScopes runs behind AccessTokenMiddleware"), realm: realm,
                resourceMetadata: resourceMetadata)
        }
        let missing = scopes.filter { !token.hasScope($0) }
        guard missing.isEmpty else {
            return BearerRefusal.response(
                for: AccessTokenError(
                    .scope, "the token lacks the scope \(missing.joined(separator: " "))", requiredScopes: scopes),
                realm: realm, resourceMetadata: resourceMetadata)
        }
        return try await next(request, context)
    }
}

/// The response for a refused token: the status, the challenge and a JSON error body.
public enum BearerRefusal {
    /// The response for `error`: its status, `WWW-Authenticate` (with `resource_metadata`, RFC
    /// 9728 §5.1, when the API serves metadata) and `Cache-Control: no-store`.
    public static func response(for error: AccessTokenError, realm: String?, resourceMetadata: String? = nil) -> Response {
        var headers = HTTPFields()
        var challenge = BearerChallenge(refusing: error, realm: realm)
        challenge.resourceMetadata = resourceMetadata
        headers[.wwwAuthenticate] = challenge.headerValue
        headers[.contentType] = "application/json"
        headers[.cacheControl] = "no-store"
        if error.rule == .keysUnavailable || error.rule == .replayCheckUnavailable { headers[.retryAfter] = "5" }
        // RFC 9449 §9: the nonce to sign the next proof with.
        if let nonce = error.dpopNonce { headers[AccessTokenMiddleware<ResourceRequestContext>.dpopNonce] = nonce }
        var body: [String: String] = [:]
        if let code = error.errorCode {
            body["error"] = code
            body["error_description"] = error.message
        } else {
            // RFC 6750 §3.1: no error code when the request had no credentials.
            body["error_description"] = "Send an access token: Authorization: Bearer <token>."
        }
        let data = (try? JSONEncoder().encode(body)) ?? Data("{}".utf8)
        return Response(
            status: HTTPResponse.Status(code: error.status), headers: headers,
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }
}

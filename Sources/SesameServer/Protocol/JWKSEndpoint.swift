import Hummingbird

/// The JSON Web Key Set (RFC 7517 §5) at `jwks_uri`: every published signing key, including
/// keys announced ahead of use and retired keys whose tokens may still be valid.
/// Short caching so that rotation reaches clients quickly; clients refetch on an unknown `kid`.
struct JWKSEndpoint: Sendable {
    let keyRing: KeyRing

    func handle(_ request: Request, context: SesameRequestContext) async throws -> Response {
        let data = try await keyRing.jwks()
        var response = JSONResponse.make(data: data, noStore: false)
        response.headers[.contentType] = "application/jwk-set+json"
        response.headers[.cacheControl] = "public, max-age=60"
        response.headers[.accessControlAllowOrigin] = "*"
        return response
    }
}

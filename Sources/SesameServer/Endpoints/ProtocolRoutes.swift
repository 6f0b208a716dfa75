import Hummingbird

/// The OAuth 2.0 and OpenID Connect endpoints a client calls directly: discovery (OIDC
/// Discovery §4, RFC 8414 §3), the JWKS, `/token` (RFC 6749 §3.2), revocation (RFC 7009),
/// introspection (RFC 7662) and UserInfo (OIDC Core §5.3).
struct ProtocolRoutes: FeatureRoutes {
    let discovery: DiscoveryEndpoint
    let jwks: JWKSEndpoint
    let token: TokenEndpoint
    let revocation: RevocationEndpoint
    let introspection: IntrospectionEndpoint
    let userInfo: UserInfoEndpoint
    let pushedRequests: PushedAuthorizationEndpoint

    init(services: ServerServices) throws {
        discovery = try DiscoveryEndpoint(
            issuer: services.issuerIdentifier, requirePushedRequests: services.requirePushedRequests,
            dpopAlgorithms: services.dpopAlgorithms)
        jwks = JWKSEndpoint(keyRing: services.keyRing)
        token = TokenEndpoint(services: services)
        revocation = RevocationEndpoint(
            clientAuthenticator: services.clientAuthenticator, accessTokenVerifier: services.accessTokenVerifier,
            store: services.store, now: services.now, audit: services.audit, deviceSessions: services.deviceSessions)
        introspection = IntrospectionEndpoint(
            clientAuthenticator: services.clientAuthenticator, accessTokenVerifier: services.accessTokenVerifier,
            store: services.store, issuer: services.issuerIdentifier, now: services.now)
        userInfo = UserInfoEndpoint(bearer: services.bearerAuthentication)
        pushedRequests = PushedAuthorizationEndpoint(
            clientAuthenticator: services.clientAuthenticator, requests: services.pushedRequests, dpop: services.dpop)
    }

    func register(on router: Router<SesameRequestContext>) {
        router.get("/.well-known/openid-configuration", use: discovery.handle)
        router.get("/.well-known/oauth-authorization-server", use: discovery.handle)
        router.get("/jwks", use: jwks.handle)
        router.post("/token", use: token.post)
        router.post("/par", use: pushedRequests.post)
        router.post("/revoke", use: revocation.post)
        router.post("/introspect", use: introspection.post)
        router.get("/userinfo", use: userInfo.handle)
        router.post("/userinfo", use: userInfo.handle)
    }
}

import Hummingbird

/// Federation (docs/federation.md; the checks and accounts are the provider's
/// ``FederationExchange``): "Continue with …" on the hosted login page
/// (``FederationBrokerEndpoint``) and the account's linked identities under `/api/identities`
/// (``IdentitiesEndpoint``). Sign-in with a provider's token from an app is a token exchange at
/// `/token` (``ProtocolRoutes``).
struct FederationRoutes: FeatureRoutes {
    let broker: FederationBrokerEndpoint
    let identities: IdentitiesEndpoint

    func register(on router: Router<SesameRequestContext>) {
        router.get("/federation/start", use: broker.start)
        router.get(RouterPath(FederationBrokerEndpoint.callbackPath), use: broker.callback)
        router.get("/api/identities", use: identities.list)
        router.delete("/api/identities/{provider}/{subject}", use: identities.unlink)
    }
}

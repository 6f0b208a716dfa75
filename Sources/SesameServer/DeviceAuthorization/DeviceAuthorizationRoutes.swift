import Hummingbird

/// The device authorization grant (RFC 8628): the endpoint a device asks for its codes, and the
/// verification page a person approves it on. The device's polling is a grant at `/token`
/// (``DeviceCodeGrant``).
struct DeviceAuthorizationRoutes: FeatureRoutes {
    let endpoint: DeviceAuthorizationEndpoint
    let page: DeviceVerificationPage

    init(provider: Provider, pages: HostedPages, clientAuthenticator: ClientAuthenticator) {
        endpoint = DeviceAuthorizationEndpoint(
            clientAuthenticator: clientAuthenticator, requests: provider.deviceAuthorizations)
        page = DeviceVerificationPage(provider: provider, pages: pages)
    }

    func register(on router: Router<SesameRequestContext>) {
        router.post("/device_authorization", use: endpoint.post)
        router.get(RouterPath(DeviceAuthorizations.pagePath), use: page.show)
        router.post(RouterPath(DeviceAuthorizations.pagePath), use: page.submit)
        router.get(RouterPath(DeviceAuthorizations.callbackPath), use: page.callback)
        router.post("/device/decision", use: page.decide)
    }
}

import Hummingbird

/// Passkeys (docs/passkeys.md; the ceremonies are the provider's ``Passkeys``): the hosted
/// pages' sign-in options and account page with their script (``HostedPasskeyEndpoint``,
/// ``PasskeyScripts``), the account API under `/api/passkeys` (``PasskeysEndpoint``), and the
/// domain association files native apps need (``AppAssociationEndpoint``).
struct PasskeyRoutes: FeatureRoutes {
    let hosted: HostedPasskeyEndpoint
    let api: PasskeysEndpoint
    let association: AppAssociationEndpoint

    func register(on router: Router<SesameRequestContext>) {
        router.post("/login/passkey", use: hosted.signInOptions)
        router.get("/account/passkeys", use: hosted.accountPage)
        router.post("/account/passkeys", use: hosted.register)
        router.post("/account/passkeys/options", use: hosted.accountOptions)
        router.get(RouterPath(PasskeyScripts.path), use: PasskeyScripts.serve)

        router.post("/api/passkeys/options", use: api.options)
        router.post("/api/passkeys", use: api.register)
        router.get("/api/passkeys", use: api.list)
        router.patch("/api/passkeys/{id}", use: api.rename)
        router.delete("/api/passkeys/{id}", use: api.remove)

        router.get("/.well-known/apple-app-site-association", use: association.apple)
        router.get("/.well-known/assetlinks.json", use: association.android)
    }
}

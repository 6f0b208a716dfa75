import Hummingbird

/// The routes of PIN-protected devices (``PINEndpoints``); the unlock itself is a grant at
/// `/token` (``PINUnlockGrant``).
struct PINRoutes: FeatureRoutes {
    let endpoints: PINEndpoints

    func register(on router: Router<SesameRequestContext>) {
        router.get("/api/pin/policy", use: endpoints.policy)
        router.post("/api/pin/nonce", use: endpoints.nonce)
        router.get("/api/pin/registrations", use: endpoints.list)
        router.post("/api/pin/registrations", use: endpoints.register)
        router.delete("/api/pin/registrations/{registration_id}", use: endpoints.remove)
    }
}

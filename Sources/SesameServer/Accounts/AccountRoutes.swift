import Hummingbird

/// The account APIs under `/api/` (docs/first-party-and-accounts.md): sign-up, password reset
/// and change, email change, account deletion, the profile and the devices. (Passkeys, linked
/// identities, MFA and PIN devices have their own routes.)
struct AccountRoutes: FeatureRoutes {
    let services: AccountServices

    func register(on router: Router<SesameRequestContext>) {
        let signUp = SignUpEndpoint(services: services)
        router.post("/api/signup", use: signUp.signUp)
        router.post("/api/signup/confirm", use: signUp.confirm)

        let reset = PasswordResetEndpoint(services: services)
        router.post("/api/password/reset", use: reset.request)
        router.post("/api/password/reset/confirm", use: reset.confirm)
        router.post("/api/password", use: PasswordChangeEndpoint(services: services).post)

        let email = EmailChangeEndpoint(services: services)
        router.post("/api/email", use: email.request)
        router.post("/api/email/confirm", use: email.confirm)

        router.delete("/api/account", use: AccountDeletionEndpoint(services: services).delete)

        let profile = ProfileEndpoint(services: services)
        router.get("/api/profile", use: profile.get)
        router.patch("/api/profile", use: profile.patch)

        let devices = DevicesEndpoint(services: services)
        router.get("/api/devices", use: devices.list)
        router.post("/api/devices", use: devices.register)
        router.delete("/api/devices/{device_id}", use: devices.remove)
    }
}

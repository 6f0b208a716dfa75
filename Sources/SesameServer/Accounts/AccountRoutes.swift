import Hummingbird

/// Routes of the account APIs under `/api/` (docs/first-party-and-accounts.md) and the OpenAPI
/// document.
enum AccountRoutes {
    static func register(on router: Router<SesameRequestContext>, services: ServerServices) {
        let services = AccountServices(services)
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

        let identities = IdentitiesEndpoint(services: services)
        router.get("/api/identities", use: identities.list)
        router.delete("/api/identities/{provider}/{subject}", use: identities.unlink)

        let passkeys = PasskeysEndpoint(services: services)
        router.post("/api/passkeys/options", use: passkeys.options)
        router.post("/api/passkeys", use: passkeys.register)
        router.get("/api/passkeys", use: passkeys.list)
        router.patch("/api/passkeys/{id}", use: passkeys.rename)
        router.delete("/api/passkeys/{id}", use: passkeys.remove)
    }
}

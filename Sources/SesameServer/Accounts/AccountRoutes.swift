import Hummingbird

/// The account APIs under `/api/` (docs/first-party-and-accounts.md): sign-up, password reset
/// and change, email change, account deletion, the profile and the devices. (Passkeys, linked
/// identities, MFA and PIN devices have their own routes.)
struct AccountRoutes: FeatureRoutes {
    let signUp: SignUpEndpoint
    let reset: PasswordResetEndpoint
    let passwordChange: PasswordChangeEndpoint
    let email: EmailChangeEndpoint
    let deletion: AccountDeletionEndpoint
    let profile: ProfileEndpoint
    let devices: DevicesEndpoint

    init(provider: Provider, bearer: BearerAuthentication, challenges: ChallengeGate?) {
        signUp = SignUpEndpoint(provider: provider, challenges: challenges)
        reset = PasswordResetEndpoint(provider: provider, challenges: challenges)
        passwordChange = PasswordChangeEndpoint(provider: provider, bearer: bearer)
        email = EmailChangeEndpoint(provider: provider, bearer: bearer)
        deletion = AccountDeletionEndpoint(provider: provider, bearer: bearer)
        profile = ProfileEndpoint(provider: provider, bearer: bearer)
        devices = DevicesEndpoint(provider: provider, bearer: bearer)
    }

    func register(on router: Router<SesameRequestContext>) {
        router.post("/api/signup", use: signUp.signUp)
        router.post("/api/signup/confirm", use: signUp.confirm)
        router.post("/api/password/reset", use: reset.request)
        router.post("/api/password/reset/confirm", use: reset.confirm)
        router.post("/api/password", use: passwordChange.post)
        router.post("/api/email", use: email.request)
        router.post("/api/email/confirm", use: email.confirm)
        router.delete("/api/account", use: deletion.delete)
        router.get("/api/profile", use: profile.get)
        router.patch("/api/profile", use: profile.patch)
        router.get("/api/devices", use: devices.list)
        router.post("/api/devices", use: devices.register)
        router.delete("/api/devices/{device_id}", use: devices.remove)
    }
}

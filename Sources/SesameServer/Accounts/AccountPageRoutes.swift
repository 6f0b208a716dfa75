import Hummingbird

/// The hosted account pages (docs/first-party-and-accounts.md): sign-up, email confirmation
/// and password reset, for users who arrive in a browser.
struct AccountPageRoutes: FeatureRoutes {
    let signUp: SignUpPage
    let verification: EmailVerificationPage
    let reset: PasswordResetPage

    init(pages: HostedAccountPages, provider: Provider, completion: SignInCompletion) {
        signUp = SignUpPage(pages: pages, provider: provider)
        verification = EmailVerificationPage(pages: pages, provider: provider, completion: completion)
        reset = PasswordResetPage(pages: pages, provider: provider)
    }

    func register(on router: Router<SesameRequestContext>) {
        router.get("/signup", use: signUp.get)
        router.post("/signup", use: signUp.post)
        router.get("/verify-email", use: verification.get)
        router.post("/verify-email", use: verification.post)
        router.get("/password-reset", use: reset.get)
        router.post("/password-reset", use: reset.post)
        router.post("/password-reset/confirm", use: reset.confirm)
    }
}

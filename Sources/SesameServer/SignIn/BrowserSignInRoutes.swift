import Hummingbird

/// The browser's sign-in (OIDC Core §3.1): the home page, `/authorize` and the hosted login
/// form it shows, the login form's post, RP-initiated logout, and the scripts that solve an
/// abuse challenge in the page.
struct BrowserSignInRoutes: FeatureRoutes {
    let pages: PageRenderer
    let authorization: AuthorizationEndpoint
    let login: LoginEndpoint
    let endSession: EndSessionEndpoint

    func register(on router: Router<SesameRequestContext>) {
        let pages = pages
        router.get(RouterPath(HostedPageRoutes.home)) { request, _ in
            pages.home(locales: LocalePreference.from(request: request))
        }
        router.get("/authorize", use: authorization.get)
        router.post("/authorize", use: authorization.post)
        router.get("/login", use: login.get)
        router.post("/login", use: login.post)
        router.get("/logout", use: endSession.get)
        router.post("/logout", use: endSession.post)
        router.get(RouterPath(ChallengeScripts.pagePath), use: ChallengeScripts.page)
        router.get(RouterPath(ChallengeScripts.workerPath), use: ChallengeScripts.worker)
    }
}

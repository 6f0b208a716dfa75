import Hummingbird

/// `/signup` and `/password-reset`: linked from the login page (SPEC §1.1); the account APIs
/// arrive in a later issue, so these pages say so. No forms.
struct PlaceholderPagesEndpoint: Sendable {
    let pages: PageRenderer

    func signUp(_ request: Request, context: SesameRequestContext) -> Response {
        pages.message(
            titleKey: "signup.title", bodyKey: "signup.body",
            locales: LocalePreference.from(request: request))
    }

    func passwordReset(_ request: Request, context: SesameRequestContext) -> Response {
        pages.message(
            titleKey: "password_reset.title", bodyKey: "password_reset.body",
            locales: LocalePreference.from(request: request))
    }
}

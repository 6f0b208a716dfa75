import Foundation
import HTTPTypes
import Hummingbird
import SesameProtocol

/// The hosted login page for a held authorization request (OIDC Core §3.1.2.3), wherever the
/// browser's flow shows it (`/authorize`, a refused `/login`, the MFA step, "Back to sign in"):
/// the password form, the passkey button, the "Continue with …" links of brokering providers,
/// the sign-up and password-reset links, and the CSRF cookie.
///
/// The form and every link carry only the request's reference (``PendingAuthorizations``),
/// never its parameters: what the browser sends back cannot change the request.
enum LoginPage {
    /// The login page for a held request, setting the CSRF cookie when needed.
    static func render(
        for held: HeldAuthorization, request: Request, pages: HostedPages,
        username: String, errorKey: String?, status: HTTPResponse.Status = .ok, challenge: ProofOfWorkChallenge? = nil,
        csrf: CSRFProtection.Token? = nil, providers: [(name: String, href: String)] = []
    ) -> Response {
        let csrf = csrf ?? pages.csrf.token(for: request)
        var response = pages.renderer.login(
            PageRenderer.LoginForm(
                clientName: held.client.name, hiddenFields: hiddenFields(held), csrfToken: csrf.value,
                username: username, errorKey: errorKey, redirectURI: held.authorization.redirectURI,
                signUpHref: "/signup?" + held.query, passwordResetHref: "/password-reset?" + held.query,
                challenge: challenge, providers: providers),
            locales: LocalePreference.from(request: request, uiLocales: held.authorization.uiLocales),
            status: status)
        if let cookie = pages.csrf.setCookie(csrf) { response.headers.append(cookie) }
        return response
    }

    /// The hidden field that names the held request: its reference, nothing else.
    static func hiddenFields(_ held: HeldAuthorization) -> [(name: String, value: String)] {
        [(name: PendingAuthorizations.referenceField, value: held.reference)]
    }

    /// "Back to sign in": the login page of the same held request (`GET /login`).
    static func href(_ held: HeldAuthorization) -> String { "/login?" + held.query }

    /// "Continue with …" for each provider the server brokers (docs/federation.md), naming the
    /// held request to `/federation/start`; empty without one.
    static func providerLinks(for held: HeldAuthorization, store: any FederationStore) async throws
        -> [(name: String, href: String)]
    {
        try await store.federationProviders().filter(\.brokers).map {
            ($0.displayName, "/federation/start?provider=\(FormURLEncoding.escape($0.id))&\(held.query)")
        }
    }
}

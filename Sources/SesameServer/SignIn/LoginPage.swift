import Foundation
import HTTPTypes
import Hummingbird
import SesameProtocol

/// The hosted login page for a validated authorization request (OIDC Core §3.1.2.3), wherever
/// the browser's flow shows it (`/authorize`, a refused `/login`, the MFA step): the password
/// form carrying the request, the passkey button, the "Continue with …" links of brokering
/// providers, the sign-up and password-reset links, and the CSRF cookie.
enum LoginPage {
    /// The login page for a validated request, setting the CSRF cookie when needed.
    static func render(
        for authorization: AuthorizationRequest, client: ClientRecord, request: Request,
        pages: PageRenderer, csrfProtection: CSRFProtection, username: String, errorKey: String?,
        status: HTTPResponse.Status = .ok, challenge: ProofOfWorkChallenge? = nil,
        csrf: CSRFProtection.Token? = nil, providers: [(name: String, href: String)] = []
    ) -> Response {
        let csrf = csrf ?? csrfProtection.token(for: request)
        let links = accountLinks(for: authorization)
        var response = pages.login(
            PageRenderer.LoginForm(
                clientName: client.name, hiddenFields: authorization.formParameters,
                csrfToken: csrf.value, username: username, errorKey: errorKey,
                redirectURI: authorization.redirectURI, signUpHref: links.signUp,
                passwordResetHref: links.passwordReset, challenge: challenge, providers: providers),
            locales: LocalePreference.from(request: request, uiLocales: authorization.uiLocales),
            status: status)
        if let cookie = csrfProtection.setCookie(csrf) { response.headers.append(cookie) }
        return response
    }

    /// The sign-up and password-reset pages, carrying the same request.
    static func accountLinks(for authorization: AuthorizationRequest) -> (signUp: String, passwordReset: String) {
        let query = authorization.formQuery
        return ("/signup?" + query, "/password-reset?" + query)
    }

    /// "Continue with …" for each provider the server brokers (docs/federation.md), carrying the
    /// request to `/federation/start`; empty without one.
    static func providerLinks(for authorization: AuthorizationRequest, store: any FederationStore) async throws
        -> [(name: String, href: String)]
    {
        let query = authorization.formQuery
        return try await store.federationProviders().filter(\.brokers).map {
            ($0.displayName, "/federation/start?provider=\(FormURLEncoding.escape($0.id))&\(query)")
        }
    }
}

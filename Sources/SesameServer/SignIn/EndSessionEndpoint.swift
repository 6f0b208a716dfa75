import Foundation
import HTTPTypes
import Hummingbird
import SesameProtocol

/// RP-Initiated Logout 1.0, `GET`/`POST /logout`. Ends the browser SSO session (session
/// removed, cookie cleared) and either redirects to a `post_logout_redirect_uri` registered for
/// the client, exactly matched (§3), with `state` echoed, or shows a "You are signed out" page.
///
/// - `id_token_hint` must carry our signature and issuer; its expiry is not checked (§2,
///   ``IDTokenHint``). When both `id_token_hint` and `client_id` are given they must agree.
/// - Without a valid `id_token_hint` that belongs to the browser's session, or with a
///   `logout_hint` naming another End-User (``LogoutHints``), the End-User is asked to confirm
///   first (§2: the OP MUST ask then): a page whose form posts back here with the double-submit
///   CSRF token and `confirm` (``LogoutConfirmationTemplate``), carrying the `client_id` the
///   hint named. Only that POST, CSRF verified, ends the session; a `confirm` POST failing the
///   CSRF check is refused (403) and ends nothing.
/// - A `post_logout_redirect_uri` that cannot be honoured (not registered for the client, or
///   no hint and no `client_id` to say which client asks) is never followed (§3): an error
///   page says why and the session is kept (``PostLogoutRedirect``).
///
/// Refresh tokens are not revoked here: apps revoke them through `/revoke` (logout
/// is separate steps).
struct EndSessionEndpoint: Sendable {
    let provider: Provider
    let pages: HostedPages
    let responder: AuthorizationResponder

    /// The hidden field of the confirmation form that marks a confirmed logout.
    static let confirmField = "confirm"
    /// The logout parameters the confirmation form carries, validated again on POST.
    static let carriedParameters = ["client_id", "post_logout_redirect_uri", "state", "ui_locales"]

    func get(_ request: Request, context: SesameRequestContext) async throws -> Response {
        try await responder.withParameters(of: request, context: context, fromBody: false) {
            try await logout($0, request: request, context: context)
        }
    }

    func post(_ request: Request, context: SesameRequestContext) async throws -> Response {
        try await responder.withParameters(of: request, context: context, fromBody: true) {
            try await logout($0, request: request, context: context)
        }
    }


    private func logout(
        _ parameters: [String: String], request: Request, context: SesameRequestContext
    ) async throws -> Response {
        let uiLocales = parameters[OAuthParameter.uiLocales]
        let confirmed = parameters[Self.confirmField] != nil
        if confirmed, !pages.csrf.verify(request: request, form: parameters) {
            return responder.errorPage(
                .csrfFailed, "The sign-out confirmation's CSRF cookie and form field are missing or differ.",
                request: request, context: context, uiLocales: uiLocales)
        }

        var clientID = parameters[OAuthParameter.clientID]
        var hintedToken: IDTokenClaims?
        if let hint = parameters[OAuthParameter.idTokenHint] {
            let claims: IDTokenClaims
            do throws(IDTokenHintError) {
                claims = try await IDTokenHint.verify(
                    hint, issuer: provider.issuer, keyRing: provider.keyRing)
            } catch {
                return responder.errorPage(
                    .invalidRequest, error.description, request: request, context: context, uiLocales: uiLocales)
            }
            if let clientID, clientID != claims.aud {
                return responder.errorPage(
                    .invalidRequest, "client_id does not match the id_token_hint audience.",
                    request: request, context: context, uiLocales: uiLocales)
            }
            clientID = claims.aud
            hintedToken = claims
        }
        if let clientID { context.annotations.record(clientID: clientID) }

        let redirect: String?
        do {
            redirect = try await PostLogoutRedirect.resolve(
                parameters[OAuthParameter.postLogoutRedirectURI], clientID: clientID, store: provider.store)
        } catch let refusal as PostLogoutRedirectRefusal {
            return responder.errorPage(
                .invalidRequest, refusal.description, request: request, context: context, uiLocales: uiLocales,
                messageKey: refusal.messageKey)
        }

        if !confirmed {
            let session = try await BrowserSessionResolver(store: provider.store, cookies: pages.cookies, now: provider.now).current(request)
            let hints = LogoutHints(idToken: hintedToken, logoutHint: parameters[OAuthParameter.logoutHint])
            guard try await hints.identify(session, store: provider.store) else {
                var carried = parameters
                carried["client_id"] = clientID
                return confirmation(carried, redirect: redirect, request: request, context: context)
            }
        }
        return try await endSession(
            redirect: redirect, state: parameters[OAuthParameter.state], uiLocales: uiLocales, request: request, context: context)
    }

    /// §2: asks the End-User whether to sign out, carrying the request in hidden fields.
    private func confirmation(
        _ parameters: [String: String], redirect: String?, request: Request, context: SesameRequestContext
    ) -> Response {
        context.annotations.record(outcome: "logout_confirmation")
        let csrf = pages.csrf.token(for: request)
        var hidden = Self.carriedParameters.compactMap { name in parameters[name].map { (name: name, value: $0) } }
        hidden.append((name: Self.confirmField, value: "1"))
        var response = pages.renderer.logoutConfirmation(
            PageRenderer.LogoutConfirmation(hiddenFields: hidden, csrfToken: csrf.value, redirectURI: redirect),
            locales: LocalePreference.from(request: request, uiLocales: parameters[OAuthParameter.uiLocales]))
        if let cookie = pages.csrf.setCookie(csrf) { response.headers.append(cookie) }
        return response
    }

    /// Ends the browser session and redirects (§3) or shows the signed-out page.
    private func endSession(
        redirect: String?, state: String?, uiLocales: String?, request: Request, context: SesameRequestContext
    ) async throws -> Response {
        let resolver = BrowserSessionResolver(store: provider.store, cookies: pages.cookies, now: provider.now)
        try await resolver.end(request)
        let clearCookie = pages.cookies.clearSession()

        if let redirect {
            context.annotations.record(outcome: "logged_out_redirect")
            var response =
                state.map { AuthorizationResponder.redirect(to: redirect, parameters: [(OAuthParameter.state, $0)]) }
                ?? Response(status: .seeOther, headers: [.location: redirect, .cacheControl: "no-store"])
            response.headers.append(HTTPField(name: .setCookie, value: clearCookie))
            return response
        }
        context.annotations.record(outcome: "logged_out")
        var response = pages.renderer.message(
            titleKey: "signed_out.title", bodyKey: "signed_out.body",
            locales: LocalePreference.from(request: request, uiLocales: uiLocales))
        response.headers.append(HTTPField(name: .setCookie, value: clearCookie))
        return response
    }
}

import Foundation
import HTTPTypes
import Hummingbird
import SesameProtocol

/// RP-Initiated Logout 1.0, `GET`/`POST /logout`. Ends the browser SSO session (session
/// removed, cookie cleared) and either redirects to a `post_logout_redirect_uri` registered for
/// the client, exactly matched (§3), with `state` echoed, or shows a "You are signed out" page.
///
/// `id_token_hint` must carry our signature and issuer; its expiry is not checked (§2). When
/// both `id_token_hint` and `client_id` are given they must agree. Refresh tokens are not
/// revoked here: apps revoke them through `/revoke` (SPEC §1.3, logout is separate steps).
struct EndSessionEndpoint: Sendable {
    let services: ServerServices

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

    private var responder: AuthorizationResponder { AuthorizationResponder(services: services) }

    private func logout(
        _ parameters: [String: String], request: Request, context: SesameRequestContext
    ) async throws -> Response {
        var clientID = parameters["client_id"]
        if let hint = parameters["id_token_hint"] {
            guard let claims = try? await services.keyRing.verify(hint, as: IDTokenClaims.self),
                claims.iss == services.issuerIdentifier
            else {
                return responder.errorPage(
                    .invalidRequest, "id_token_hint is not an ID token issued here.", request: request,
                    context: context, uiLocales: parameters["ui_locales"])
            }
            if let clientID, clientID != claims.aud {
                return responder.errorPage(
                    .invalidRequest, "client_id does not match the id_token_hint audience.",
                    request: request, context: context, uiLocales: parameters["ui_locales"])
            }
            clientID = claims.aud
        }
        if let clientID { context.annotations.record(clientID: clientID) }

        var redirect: String?
        if let target = parameters["post_logout_redirect_uri"], let clientID,
            let client = try await services.store.client(id: clientID),
            client.postLogoutRedirectURIs.contains(target)
        {
            redirect = target
        }

        let resolver = BrowserSessionResolver(store: services.store, now: services.now)
        try await resolver.end(request)
        let clearCookie = services.cookies.clearSession()

        if let redirect {
            context.annotations.record(outcome: "logged_out_redirect")
            var query: [(String, String)] = []
            if let state = parameters["state"] { query.append(("state", state)) }
            var response =
                query.isEmpty
                ? Response(status: .seeOther, headers: [.location: redirect, .cacheControl: "no-store"])
                : AuthorizationResponder.redirect(to: redirect, parameters: query)
            response.headers.append(HTTPField(name: .setCookie, value: clearCookie))
            return response
        }
        context.annotations.record(outcome: "logged_out")
        var response = services.pages.message(
            titleKey: "signed_out.title", bodyKey: "signed_out.body",
            locales: LocalePreference.from(request: request, uiLocales: parameters["ui_locales"]))
        response.headers.append(HTTPField(name: .setCookie, value: clearCookie))
        return response
    }
}

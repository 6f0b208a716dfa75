import Foundation
import Hummingbird
import SesameProtocol

/// The authorization endpoint, `GET`/`POST /authorize` (RFC 6749 §3.1, OIDC Core §3.1.2):
/// authorization code flow with PKCE S256 only. Uses the browser SSO session when `prompt` and
/// `max_age` allow it, answers `login_required` for `prompt=none` without one, and otherwise
/// shows the hosted login form.
///
/// `id_token_hint` (OIDC Core §3.1.2.1) must be an ID token issued here to the requesting client
/// (``IDTokenHint``; expired ones are accepted), else `invalid_request`. When the browser's
/// session belongs to another End-User than the hint's `sub`, that session is not used:
/// `login_required` with `prompt=none`, otherwise the login form (nothing pre-filled from the
/// hint). A `claims` parameter naming a `sub` value (§5.5.1) is treated the same way, and
/// an essential `acr` in it asks for a second factor like `acr_values` (``RequestedClaims``).
///
/// A pushed request (RFC 9126 §4) arrives as `client_id` and `request_uri` only: the stored
/// parameters replace the query, once. A client that must push (or every client, when the
/// server requires it) is refused without one.
///
/// When the user must sign in, the accepted request is held on the server for this browser
/// (``PendingAuthorizations``; a pushed request as pushed) and the login page carries only its
/// reference: no later step reads the request from anything the browser sends.
struct AuthorizationEndpoint: Sendable {
    let provider: Provider
    let pages: HostedPages
    let responder: AuthorizationResponder
    let mfaStep: HostedMFAStep
    /// Proof-of-work challenges for sign-ins that look automated; `nil`: none.
    let challenges: ChallengeGate?

    func get(_ request: Request, context: SesameRequestContext) async throws -> Response {
        try await responder.withParameters(of: request, context: context, fromBody: false) {
            try await authorize($0, request: request, context: context)
        }
    }

    /// OIDC Core §3.1.2.1: the endpoint MUST support POST with a form body.
    func post(_ request: Request, context: SesameRequestContext) async throws -> Response {
        try await responder.withParameters(of: request, context: context, fromBody: true) {
            try await authorize($0, request: request, context: context)
        }
    }


    private func authorize(
        _ query: [String: String], request: Request, context: SesameRequestContext
    ) async throws -> Response {
        var parameters = query
        var pushed = false
        // RFC 9126 §4: a request_uri of ours names the whole pushed request; nothing else is read.
        // Any other request_uri (an OIDC Core §6.2 Request Object by reference) goes on to the
        // validator, which answers request_uri_not_supported.
        if let requestURI = query[OAuthParameter.requestURI],
            requestURI.hasPrefix(PushedAuthorizationResponse.requestURIPrefix)
        {
            guard let clientID = query[OAuthParameter.clientID],
                let stored = try await provider.pushedRequests.take(requestURI: requestURI, clientID: clientID)
            else {
                if let clientID = query[OAuthParameter.clientID] { context.annotations.record(clientID: clientID) }
                return responder.refuse(
                    .page(
                        code: .invalidRequest,
                        description:
                            "request_uri is unknown, expired, already used or not this client's; push the request to /par again."),
                    request: request, context: context, uiLocales: query[OAuthParameter.uiLocales])
            }
            parameters = stored
            pushed = true
        }
        let authorization: AuthorizationRequest
        let client: ClientRecord
        do {
            (authorization, client) = try await provider.requestValidator.validate(parameters)
        } catch let error as AuthorizationRequestError {
            if let clientID = parameters[OAuthParameter.clientID] { context.annotations.record(clientID: clientID) }
            return responder.refuse(error, request: request, context: context, uiLocales: parameters[OAuthParameter.uiLocales])
        }
        context.annotations.record(clientID: client.clientID)
        if !pushed, provider.settings.requirePushedRequests || client.requirePushedRequests {
            return responder.refuse(
                .redirect(
                    code: .invalidRequest,
                    description: "This client must push its authorization requests to /par first (RFC 9126).",
                    redirectURI: authorization.redirectURI, state: authorization.state),
                request: request, context: context)
        }

        let resolver = BrowserSessionResolver(store: provider.store, cookies: pages.cookies, now: provider.now)
        var session = try await resolver.current(request)
        var hintedSubject: String?
        if let hint = parameters[OAuthParameter.idTokenHint] {
            do throws(IDTokenHintError) {
                hintedSubject = try await IDTokenHint.verify(
                    hint, issuer: provider.issuer, keyRing: provider.keyRing, audience: client.clientID
                ).sub
            } catch {
                return responder.refuse(
                    .redirect(
                        code: .invalidRequest, description: error.description,
                        redirectURI: authorization.redirectURI, state: authorization.state),
                    request: request, context: context)
            }
        }
        // OIDC Core §3.1.2.1 (id_token_hint) and §5.5.1 (claims.id_token.sub): the session of
        // another End-User than the one named is never used for this request.
        if let current = session, let named = Self.otherUserNamed(
            by: authorization, hintedSubject: hintedSubject, sessionUser: current.authentication.userID)
        {
            if authorization.prompt.isNone {
                return responder.refuse(
                    .redirect(
                        code: .loginRequired,
                        description: "The signed-in user is not the one \(named) names (prompt=none).",
                        redirectURI: authorization.redirectURI, state: authorization.state),
                    request: request, context: context)
            }
            context.annotations.record(outcome: "session_of_other_user")
            session = nil
        }
        // A client that registered itself (RFC 7591) is a third party nobody approved: the user
        // signs in on the page that names it, never silently through the SSO session (§5).
        if session != nil, try await provider.store.clientRegistration(clientID: client.clientID) != nil {
            if authorization.prompt.isNone {
                return responder.refuse(
                    .redirect(
                        code: .consentRequired,
                        description: "This app registered itself; the user must sign in to it on the sign-in page (prompt=none).",
                        redirectURI: authorization.redirectURI, state: authorization.state),
                    request: request, context: context)
            }
            context.annotations.record(outcome: "registered_client_sign_in")
            session = nil
        }
        switch authorization.prompt.decide(sessionAuthTime: session?.authentication.authTime, now: provider.now()) {
        case .useSession:
            guard let session else { break }
            // SSO must not skip a second factor the client or acr_values require (docs/first-party-and-accounts.md).
            guard try await mfaStep.satisfies(
                session.authentication, client: client, acrValues: authorization.requestedACRValues)
            else {
                if authorization.prompt.isNone {
                    return responder.refuse(
                        .redirect(
                            code: .loginRequired, description: "The user must complete a second factor (prompt=none).",
                            redirectURI: authorization.redirectURI, state: authorization.state),
                        request: request, context: context)
                }
                break
            }
            context.annotations.record(outcome: "code_issued_sso")
            return try await responder.issueCode(
                for: authorization, authentication: session.authentication, sessionID: session.sid)
        case .loginRequired:
            return responder.refuse(
                .redirect(
                    code: .loginRequired, description: "The user must sign in (prompt=none).",
                    redirectURI: authorization.redirectURI, state: authorization.state),
                request: request, context: context)
        case .showLogin:
            break
        }
        context.annotations.record(outcome: "login_form")
        // From here the request lives on the server (``PendingAuthorizations``), bound to this
        // browser's pre-session: the page carries its reference only, never its parameters.
        let csrf = pages.csrf.token(for: request)
        let held = try await provider.pendingAuthorizations.hold(
            parameters, authorization: authorization, client: client, pushed: pushed,
            browserBinding: csrf.browserBinding)
        // When a sign-in from here would be challenged, the page carries the challenge so the
        // browser solves it while the user types (bound to the form's CSRF token).
        let challenge = challenges?.pageChallenge(
            .signIn, subject: csrf.value, clientID: client.clientID, context: context)
        return LoginPage.render(
            for: held, request: request, pages: pages,
            username: authorization.loginHint ?? "", errorKey: nil, challenge: challenge, csrf: csrf,
            providers: try await LoginPage.providerLinks(for: held, store: provider.store))
    }

    /// The parameter naming an End-User other than the session's, if one does.
    private static func otherUserNamed(
        by authorization: AuthorizationRequest, hintedSubject: String?, sessionUser: String
    ) -> String? {
        if let hintedSubject, hintedSubject != sessionUser { return "id_token_hint" }
        if authorization.claims?.admits(userID: sessionUser) == false { return "claims.id_token.sub" }
        return nil
    }
}

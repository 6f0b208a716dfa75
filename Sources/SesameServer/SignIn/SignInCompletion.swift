import Foundation
import HTTPTypes
import Hummingbird
import SesameProtocol

/// How a hosted sign-in ends, whichever step proved the user (the password, a second factor, a
/// passkey, a provider's ID token, a sign-up whose email was just confirmed): the second factor
/// when one is still required, then the held request completed once (a replayed or concurrent
/// form gets the expired page), the browser SSO session started, and the code sent to the
/// client's redirect URI (OIDC Core §3.1.2.5).
struct SignInCompletion: Sendable {
    let provider: Provider
    let pages: HostedPages
    let responder: AuthorizationResponder
    let mfaStep: HostedMFAStep
    let metrics: ServerMetrics

    /// Continues a sign-in whose password was just proven (the login form, or a hosted sign-up
    /// that confirmed its email): the MFA step when one is required, else the session and the code.
    func passwordAccepted(
        for user: UserRecord, held: HeldAuthorization, request: Request, context: SesameRequestContext
    ) async throws -> Response {
        if let page = try await mfaStep.begin(held: held, user: user, request: request, context: context) {
            metrics.signIn(.mfaRequired)
            return page
        }
        let authentication = AuthenticationContext(
            userID: user.id, authTime: provider.now(), acr: AuthenticationLevels.password, amr: ["pwd"])
        return try await complete(authentication, held: held, request: request, context: context)
    }

    /// Completes the held request, starts the browser SSO session for a finished authentication
    /// (replacing any previous one) and redirects with a code, recorded as `outcome`.
    func complete(
        _ authentication: AuthenticationContext, held: HeldAuthorization, request: Request,
        context: SesameRequestContext, outcome: String = "code_issued_login"
    ) async throws -> Response {
        let authorization = held.authorization
        // OIDC Core §5.5.1: no session is started for a user the relying party did not ask about.
        guard authorization.claims?.admits(userID: authentication.userID) ?? true else {
            return responder.refuse(
                .redirect(
                    code: AuthorizationResponder.otherUserThanClaimsSubject.code,
                    description: AuthorizationResponder.otherUserThanClaimsSubject.description,
                    redirectURI: authorization.redirectURI, state: authorization.state),
                request: request, context: context)
        }
        if let gone = try await responder.complete(held, request: request, context: context) { return gone }
        let lifetime = provider.settings.browserSessionLifetime
        let resolver = BrowserSessionResolver(store: provider.store, cookies: pages.cookies, now: provider.now)
        try await resolver.end(request)
        let session = try await resolver.start(authentication, lifetime: lifetime)
        context.annotations.record(outcome: outcome)
        return try await responder.issueCode(
            for: authorization, authentication: authentication, sessionID: session.record.sid,
            extraHeaders: [.setCookie: pages.cookies.session(session.cookieValue, maxAge: Int(lifetime))])
    }
}

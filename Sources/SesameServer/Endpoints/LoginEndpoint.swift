import Foundation
import HTTPTypes
import Hummingbird
import SesameProtocol

/// The hosted login form's target, `POST /login`. Checks the double-submit CSRF
/// token, validates the carried authorization request again from scratch, verifies the password
/// (constant work whether or not the user exists; throttled by ``LoginThrottle``, refused as
/// HTTP 429 with the message in the form), asks for a second factor when the client's
/// MFA policy, the user's enrolments or `acr_values` require one (``HostedMFAStep``), starts the
/// browser SSO session and redirects to the client with a code.
struct LoginEndpoint: Sendable {
    let services: ServerServices

    private var responder: AuthorizationResponder { AuthorizationResponder(services: services) }

    func post(_ request: Request, context: SesameRequestContext) async throws -> Response {
        let form: [String: String]
        do {
            form = try await FormRequest.body(of: request, context: context)
        } catch let failure as EndpointFailure {
            return responder.errorPage(failure.code, failure.description ?? "", request: request, context: context)
        }
        guard services.csrf.verify(request: request, form: form) else {
            return responder.errorPage(
                .csrfFailed, "The CSRF cookie and form field are missing or differ.", request: request,
                context: context, uiLocales: form[OAuthParameter.uiLocales])
        }
        let parameters = form.filter { AuthorizationRequest.parameterNames.contains($0.key) }
        let authorization: AuthorizationRequest
        let client: ClientRecord
        do {
            (authorization, client) = try await services.requestValidator.validate(parameters)
        } catch let error as AuthorizationRequestError {
            return responder.refuse(error, request: request, context: context, uiLocales: form[OAuthParameter.uiLocales])
        }
        context.annotations.record(clientID: client.clientID)
        if let authSession = form[AuthorizationChallengeParameter.authSession] {
            return try await HostedMFAStep(services: services).resume(
                authSession, form: form, authorization: authorization, client: client, request: request,
                context: context
            ) { try await completeSignIn($0, authorization: authorization, request: request, context: context) }
        }

        if form[AuthorizationChallengeParameter.passkeyAssertion] != nil {
            return try await passkeySignIn(form, authorization: authorization, client: client, request: request, context: context)
        }

        let username = (form["username"] ?? "").trimmingCharacters(in: .whitespaces)
        let password = form["password"] ?? ""
        // A source that looks automated solves a challenge first; the hosted page's is bound to
        // this browser's form (its CSRF token), and the page shows a new one when refused.
        if let gate = services.challenges {
            let admission = try await gate.admit(
                .signIn, surface: .hostedForm, subject: form[CSRFProtection.fieldName] ?? "", clientID: client.clientID,
                solution: ChallengeGate.solution(request, form: form), context: context)
            if case .challenged(let challenge, let refusal) = admission {
                return LoginPage.render(
                    for: authorization, client: client, request: request, pages: services.pages,
                    csrfProtection: services.csrf, username: username,
                    errorKey: ChallengeGate.errorCode(refusal: refusal).messageKey,
                    status: .tooManyRequests, challenge: challenge)
            }
        }
        let store = services.store
        let check = try await services.credentials.checkPassword(
            password, attempt: LoginAttempt(login: username, origin: RequestOrigin(context))
        ) { username.isEmpty ? nil : try await store.user(login: username) }
        services.metrics.signIn(check)
        check.record(in: services.audit, origin: RequestOrigin(context), clientID: client.clientID)
        let user: UserRecord
        switch check {
        case .accepted(let signedIn):
            user = signedIn
        case .rejected:
            context.annotations.record(outcome: "invalid_credentials")
            await services.challenges?.recordFailure(context: context)
            return LoginPage.render(
                for: authorization, client: client, request: request, pages: services.pages,
                csrfProtection: services.csrf, username: username, errorKey: "login.failed",
                status: .unauthorized, challenge: nextChallenge(form, client: client, context: context),
                providers: try await LoginPage.providerLinks(for: authorization, store: services.store))
        case .throttled(let retryAfter):
            // Like a wrong password, in the form, but 429 with Retry-After (RFC 6585 §4).
            context.annotations.record(outcome: "password_throttled")
            var response = LoginPage.render(
                for: authorization, client: client, request: request, pages: services.pages,
                csrfProtection: services.csrf, username: username, errorKey: APIErrorCode.tooManyAttempts.messageKey,
                status: .tooManyRequests, challenge: nextChallenge(form, client: client, context: context))
            response.headers[.retryAfter] = String(retryAfter)
            return response
        }

        return try await passwordAccepted(
            for: user, authorization: authorization, client: client, request: request, context: context)
    }

    /// A passkey from the login page (``HostedPasskeyEndpoint``): with user verification it is
    /// both factors, so no MFA step follows; a refusal shows the form again with its message.
    private func passkeySignIn(
        _ form: [String: String], authorization: AuthorizationRequest, client: ClientRecord, request: Request,
        context: SesameRequestContext
    ) async throws -> Response {
        switch try await HostedPasskeyEndpoint(services: services).authenticate(form, clientID: client.clientID, context: context) {
        case .signedIn(let authentication):
            services.metrics.signIn(.success)
            return try await completeSignIn(authentication, authorization: authorization, request: request, context: context)
        case .refused(let code):
            context.annotations.record(outcome: "passkey_refused")
            return LoginPage.render(
                for: authorization, client: client, request: request, pages: services.pages, csrfProtection: services.csrf,
                username: "", errorKey: code.messageKey, status: .badRequest,
                providers: try await LoginPage.providerLinks(for: authorization, store: services.store))
        }
    }

    /// The challenge for the form shown again after a refused password, when the next
    /// submission would be challenged (the failures from this address crossed the threshold).
    private func nextChallenge(
        _ form: [String: String], client: ClientRecord, context: SesameRequestContext
    ) -> ProofOfWorkChallenge? {
        services.challenges?.pageChallenge(
            .signIn, subject: form[CSRFProtection.fieldName] ?? "", clientID: client.clientID, context: context)
    }

    /// Continues a sign-in whose password was just proven (here, or by a hosted sign-up that
    /// confirmed its email): the MFA step when one is required, else the session and the code.
    func passwordAccepted(
        for user: UserRecord, authorization: AuthorizationRequest, client: ClientRecord, request: Request,
        context: SesameRequestContext
    ) async throws -> Response {
        if let mfaStep = try await HostedMFAStep(services: services).begin(
            authorization: authorization, client: client, user: user, request: request, context: context)
        {
            services.metrics.signIn(.mfaRequired)
            return mfaStep
        }
        let authentication = AuthenticationContext(
            userID: user.id, authTime: services.now(), acr: AuthenticationLevels.password, amr: ["pwd"])
        return try await completeSignIn(authentication, authorization: authorization, request: request, context: context)
    }

    /// Starts the browser SSO session for a finished authentication and redirects with a code.
    private func completeSignIn(
        _ authentication: AuthenticationContext, authorization: AuthorizationRequest, request: Request,
        context: SesameRequestContext
    ) async throws -> Response {
        // OIDC Core §5.5.1: no session is started for a user the relying party did not ask about.
        guard authorization.claims?.admits(userID: authentication.userID) ?? true else {
            return responder.refuse(
                .redirect(
                    code: AuthorizationResponder.otherUserThanClaimsSubject.code,
                    description: AuthorizationResponder.otherUserThanClaimsSubject.description,
                    redirectURI: authorization.redirectURI, state: authorization.state),
                request: request, context: context)
        }
        let resolver = BrowserSessionResolver(store: services.store, cookies: services.cookies, now: services.now)
        try await resolver.end(request)  // a new sign-in replaces any previous session
        let session = try await resolver.start(authentication, lifetime: services.browserSessionLifetime)
        context.annotations.record(outcome: "code_issued_login")
        return try await responder.issueCode(
            for: authorization, authentication: authentication, sessionID: session.record.sid,
            extraHeaders: [
                .setCookie: services.cookies.session(
                    session.cookieValue, maxAge: Int(services.browserSessionLifetime))
            ])
    }
}

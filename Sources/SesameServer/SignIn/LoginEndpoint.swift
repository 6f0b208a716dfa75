import Foundation
import HTTPTypes
import Hummingbird
import SesameProtocol

/// The hosted login form's target, `POST /login`. Checks the double-submit CSRF
/// token, finds the authorization request held for this browser under the form's reference
/// (``PendingAuthorizations``; no parameter of the form is read as part of it), verifies the password
/// (constant work whether or not the user exists; throttled by ``LoginThrottle``, refused as
/// HTTP 429 with the message in the form), asks for a second factor when the client's
/// MFA policy, the user's enrolments or `acr_values` require one (``HostedMFAStep``), starts the
/// browser SSO session, completes the held request (once, on any process) and redirects to the
/// client with a code. `GET /login` shows the login page of a held request again ("Back to sign
/// in" from the sign-up and password-reset pages).
struct LoginEndpoint: Sendable {
    let provider: Provider
    let pages: HostedPages
    let responder: AuthorizationResponder
    let mfaStep: HostedMFAStep
    /// How the sign-in ends once the user is proven (``SignInCompletion``).
    let completion: SignInCompletion
    /// The login page's passkey (``HostedPasskeyEndpoint``).
    let passkeys: HostedPasskeyEndpoint
    /// Proof-of-work challenges for sign-ins that look automated; `nil`: none.
    let challenges: ChallengeGate?
    let metrics: ServerMetrics

    func post(_ request: Request, context: SesameRequestContext) async throws -> Response {
        let form: [String: String]
        do {
            form = try await FormRequest.body(of: request, context: context)
        } catch let failure as EndpointFailure {
            return responder.errorPage(failure.code, failure.description ?? "", request: request, context: context)
        }
        guard pages.csrf.verify(request: request, form: form) else {
            return responder.errorPage(
                .csrfFailed, "The CSRF cookie and form field are missing or differ.", request: request,
                context: context, uiLocales: form[OAuthParameter.uiLocales])
        }
        let held: HeldAuthorization
        switch try await responder.held(named: form, request: request, context: context) {
        case .held(let found): held = found
        case .refused(let page): return page
        }
        if let authSession = form[AuthorizationChallengeParameter.authSession] {
            return try await mfaStep.resume(
                authSession, form: form, held: held, request: request, context: context
            ) { try await completion.complete($0, held: held, request: request, context: context) }
        }

        if form[AuthorizationChallengeParameter.passkeyAssertion] != nil {
            return try await passkeySignIn(form, held: held, request: request, context: context)
        }

        let username = (form["username"] ?? "").trimmingCharacters(in: .whitespaces)
        let password = form["password"] ?? ""
        // A source that looks automated solves a challenge first; the hosted page's is bound to
        // this browser's form (its CSRF token), and the page shows a new one when refused.
        if let gate = challenges {
            let admission = try await gate.admit(
                .signIn, surface: .hostedForm, subject: form[CSRFProtection.fieldName] ?? "", clientID: held.client.clientID,
                solution: ChallengeGate.solution(request, form: form), context: context)
            if case .challenged(let challenge, let refusal) = admission {
                return LoginPage.render(
                    for: held, request: request, pages: pages,
                    username: username, errorKey: ChallengeGate.errorCode(refusal: refusal).messageKey,
                    status: .tooManyRequests, challenge: challenge)
            }
        }
        let store = provider.store
        let check = try await provider.credentials.checkPassword(
            password, attempt: LoginAttempt(login: username, origin: RequestOrigin(context))
        ) { username.isEmpty ? nil : try await store.user(login: username) }
        metrics.signIn(check)
        check.record(in: provider.audit, origin: RequestOrigin(context), clientID: held.client.clientID)
        let user: UserRecord
        switch check {
        case .accepted(let signedIn):
            user = signedIn
        case .rejected:
            context.annotations.record(outcome: "invalid_credentials")
            await challenges?.recordFailure(context: context)
            return LoginPage.render(
                for: held, request: request, pages: pages,
                username: username, errorKey: "login.failed", status: .unauthorized,
                challenge: nextChallenge(form, client: held.client, context: context),
                providers: try await LoginPage.providerLinks(for: held, store: provider.store))
        case .throttled(let retryAfter):
            // Like a wrong password, in the form, but 429 with Retry-After (RFC 6585 §4).
            context.annotations.record(outcome: "password_throttled")
            var response = LoginPage.render(
                for: held, request: request, pages: pages,
                username: username, errorKey: APIErrorCode.tooManyAttempts.messageKey, status: .tooManyRequests,
                challenge: nextChallenge(form, client: held.client, context: context))
            response.headers[.retryAfter] = String(retryAfter)
            return response
        case .disabled:
            // The password was right: say why there is no sign-in, in the form (403).
            context.annotations.record(outcome: "account_disabled")
            return LoginPage.render(
                for: held, request: request, pages: pages,
                username: username, errorKey: APIErrorCode.accountDisabled.messageKey, status: .forbidden,
                challenge: nil)
        }

        return try await completion.passwordAccepted(for: user, held: held, request: request, context: context)
    }

    /// `GET /login?authorization_ref=…`: the login page of the request held for this browser,
    /// as `/authorize` showed it ("Back to sign in" from the sign-up and reset pages).
    func get(_ request: Request, context: SesameRequestContext) async throws -> Response {
        let held: HeldAuthorization
        switch try await responder.held(named: FormRequest.query(of: request) ?? [:], request: request, context: context) {
        case .held(let found): held = found
        case .refused(let page): return page
        }
        context.annotations.record(outcome: "login_form")
        let csrf = pages.csrf.token(for: request)
        return LoginPage.render(
            for: held, request: request, pages: pages,
            username: held.authorization.loginHint ?? "", errorKey: nil,
            challenge: challenges?.pageChallenge(
                .signIn, subject: csrf.value, clientID: held.client.clientID, context: context),
            csrf: csrf, providers: try await LoginPage.providerLinks(for: held, store: provider.store))
    }

    /// A passkey from the login page (``HostedPasskeyEndpoint``): with user verification it is
    /// both factors, so no MFA step follows; a refusal shows the form again with its message.
    private func passkeySignIn(
        _ form: [String: String], held: HeldAuthorization, request: Request, context: SesameRequestContext
    ) async throws -> Response {
        switch try await passkeys.authenticate(
            form, clientID: held.client.clientID, context: context)
        {
        case .signedIn(let authentication):
            metrics.signIn(.success)
            return try await completion.complete(authentication, held: held, request: request, context: context)
        case .refused(let code):
            context.annotations.record(outcome: "passkey_refused")
            return LoginPage.render(
                for: held, request: request, pages: pages,
                username: "", errorKey: code.messageKey, status: .badRequest,
                providers: try await LoginPage.providerLinks(for: held, store: provider.store))
        }
    }

    /// The challenge for the form shown again after a refused password, when the next
    /// submission would be challenged (the failures from this address crossed the threshold).
    private func nextChallenge(
        _ form: [String: String], client: ClientRecord, context: SesameRequestContext
    ) -> ProofOfWorkChallenge? {
        challenges?.pageChallenge(
            .signIn, subject: form[CSRFProtection.fieldName] ?? "", clientID: client.clientID, context: context)
    }
}

import Foundation
import HTTPTypes
import Hummingbird
import SesameProtocol

/// Passkeys on the hosted pages (docs/passkeys.md), driven by ``PasskeyScripts``:
///
/// - `POST /login/passkey` (form `csrf_token`): request options for the login page, the challenge
///   bound to the browser's CSRF token (the double-submit cookie must match), so an assertion
///   is accepted only from the page it was made for. Discoverable (no username). With
///   `auth_session` (the hosted MFA step): the user's passkeys, bound to that session.
/// - `POST /login` with `passkey_assertion` (``LoginEndpoint``): WebAuthn §7.2 with UV required;
///   the browser session starts with `acr` `urn:sesame:acr:mfa` and the passkey's `amr`.
/// - `GET /account/passkeys`: the browser session user's passkeys and "Add a passkey";
///   `POST /account/passkeys/options` creation options bound to the browser session;
///   `POST /account/passkeys` with `passkey_registration`: WebAuthn §7.1.
struct HostedPasskeyEndpoint: Sendable {
    let provider: Provider
    let pages: HostedPages

    // MARK: Sign-in

    func signInOptions(_ request: Request, context: SesameRequestContext) async throws -> Response {
        let form = try await FormRequest.body(of: request, context: context)
        guard pages.csrf.verify(request: request, form: form), let csrf = form[CSRFProtection.fieldName] else {
            throw EndpointFailure(.csrfFailed)
        }
        if let token = form[AuthorizationChallengeParameter.authSession] {
            // The hosted MFA step: the session's user's passkeys, bound to that auth_session.
            let flow = provider.authSessions
            guard let (session, user) = try? await flow.session(token), session.methods.contains(.passkey),
                session.redirectURI != FirstPartyCode.noRedirectURI
            else { throw EndpointFailure(.invalidAuthSession) }
            return JSONResponse.make(
                try await provider.passkeys.requestOptions(
                    .stepUp, userID: user.id, binding: session.sessionDigest, clientID: session.clientID))
        }
        let options = try await provider.passkeys.requestOptions(
            .signIn, userID: nil, binding: Self.pageBinding(csrf), clientID: form[OAuthParameter.clientID])
        return JSONResponse.make(options)
    }

    /// What a login page's `passkey_assertion` gave.
    enum Outcome: Sendable {
        case signedIn(AuthenticationContext)
        /// The refusal to show in the form.
        case refused(APIErrorCode)
    }

    func authenticate(_ form: [String: String], clientID: String, context: SesameRequestContext) async throws -> Outcome {
        guard
            let assertion = Passkeys.answer(form[AuthorizationChallengeParameter.passkeyAssertion], as: AuthenticationResponseJSON.self),
            let csrf = form[CSRFProtection.fieldName]
        else { return .refused(.passkeyInvalid) }
        do {
            let (_, verified) = try await provider.passkeys.authenticate(
                assertion, purposes: [.signIn], binding: Self.pageBinding(csrf), origin: RequestOrigin(context), clientID: clientID)
            guard let user = try await provider.store.user(id: verified.passkey.userID) else { return .refused(.passkeyNotRecognized) }
            guard !user.isDisabled else { return .refused(.accountDisabled) }
            return .signedIn(PasskeyAuthenticationContext.signIn(verified.passkey, flags: verified.flags, at: provider.now()))
        } catch let failure as PasskeyCeremonyFailure {
            return .refused(failure.failure.code)
        }
    }

    // MARK: The account's passkeys page

    func accountPage(_ request: Request, context: SesameRequestContext) async throws -> Response {
        try await page(request, context: context, noticeKey: nil, errorKey: nil)
    }

    func accountOptions(_ request: Request, context: SesameRequestContext) async throws -> Response {
        let form = try await FormRequest.body(of: request, context: context)
        guard pages.csrf.verify(request: request, form: form) else { throw EndpointFailure(.csrfFailed) }
        guard let (session, user) = try await signedIn(request) else {
            throw EndpointFailure(.loginRequired, "Sign in first; this page belongs to a browser session.", status: .unauthorized)
        }
        return JSONResponse.make(try await provider.passkeys.creationOptions(for: user, binding: Self.sessionBinding(session)))
    }

    func register(_ request: Request, context: SesameRequestContext) async throws -> Response {
        let form = try await FormRequest.body(of: request, context: context)
        guard pages.csrf.verify(request: request, form: form) else {
            return try await page(request, context: context, noticeKey: nil, errorKey: APIErrorCode.csrfFailed.messageKey)
        }
        guard let (session, user) = try await signedIn(request) else {
            return try await page(request, context: context, noticeKey: nil, errorKey: nil)
        }
        guard let credential = Passkeys.answer(form["passkey_registration"], as: RegistrationResponseJSON.self) else {
            return try await page(request, context: context, noticeKey: nil, errorKey: APIErrorCode.passkeyInvalid.messageKey)
        }
        do {
            _ = try await provider.passkeys.register(
                PasskeyRegistration(credential: credential, name: nil), user: user, binding: Self.sessionBinding(session),
                origin: RequestOrigin(context))
        } catch let failure as PasskeyCeremonyFailure {
            return try await page(request, context: context, noticeKey: nil, errorKey: failure.failure.code.messageKey)
        }
        context.annotations.record(outcome: "passkey_registered")
        return try await page(request, context: context, noticeKey: "passkeys.added", errorKey: nil)
    }

    private func page(
        _ request: Request, context: SesameRequestContext, noticeKey: String?, errorKey: String?
    ) async throws -> Response {
        let locales = LocalePreference.from(request: request, uiLocales: nil)
        guard let (_, user) = try await signedIn(request) else {
            // No session (never signed in on this browser, or it expired): say how to get one,
            // and link to the home page.
            return pages.errorPage(
                .loginRequired, "The passkeys page needs a browser session: sign in first.", request: request,
                context: context, messageKey: "passkeys.sign_in_first",
                backLink: (href: HostedPageRoutes.home, labelKey: "common.account_home"))
        }
        let csrf = pages.csrf.token(for: request)
        let passkeys = try await provider.passkeys.store.passkeys(userID: user.id)
        var response = pages.renderer.accountPasskeys(
            PageRenderer.AccountPasskeys(
                csrfToken: csrf.value, passkeys: passkeys.map { ($0.name, PasskeyAuthenticationContext.keyKind($0)) },
                noticeKey: noticeKey, errorKey: errorKey),
            locales: locales, status: errorKey == nil ? .ok : .badRequest)
        if let cookie = pages.csrf.setCookie(csrf) { response.headers.append(cookie) }
        return response
    }

    private func signedIn(_ request: Request) async throws -> (BrowserSessionRecord, UserRecord)? {
        guard let session = try await BrowserSessionResolver(store: provider.store, cookies: pages.cookies, now: provider.now).current(request),
            let user = try await provider.store.user(id: session.authentication.userID)
        else { return nil }
        return (session, user)
    }

    /// A login page's challenges are bound to its CSRF token (the browser's cookie).
    static func pageBinding(_ csrf: String) -> String { "page:" + SecretDigest.of(csrf) }

    /// The account page's registration challenges are bound to the browser session.
    static func sessionBinding(_ session: BrowserSessionRecord) -> String { "browser:" + session.idDigest }
}

import Foundation
import HTTPTypes
import Hummingbird
import SesameProtocol

/// The second factor on the hosted login page (browser flow, /§1.2; docs/first-party-and-accounts.md): after a
/// correct password, when the client's ``MFAPolicy``, the user's enrolments or `acr_values`
/// ask for it, `/login` answers with the MFA page instead of the redirect. The page posts back
/// to `/login` with the same CSRF token and the held request's reference (``PendingAuthorizations``)
/// plus `auth_session`, first `mfa_method` (a code is sent), then `mfa_code`. A correct code
/// finishes the sign-in exactly as a password does, with `acr` `urn:sesame:acr:mfa`.
///
/// The auth session is the one of ``AuthSessionFlow``, bound also to the browser request's
/// redirect URI and nonce, so it cannot be carried to another request or to the native endpoint.
struct HostedMFAStep: Sendable {
    let provider: Provider
    let pages: HostedPages

    private var flow: AuthSessionFlow { provider.authSessions }

    /// After a correct password: `nil` when no second factor is needed, else the page to show.
    func begin(
        held: HeldAuthorization, user: UserRecord, request: Request, context: SesameRequestContext
    ) async throws -> Response? {
        let authorization = held.authorization
        let client = held.client
        let requirement = MFARequirement(
            policy: client.mfaPolicy, requested: MFARequirement.asksForMFA(authorization.requestedACRValues),
            emailFallback: true)
        let usable = try await MFARequirement.usableMethods(
            for: user, mfaStore: provider.store, passkeys: provider.passkeys)
        switch requirement.decide(usable: usable, emailVerified: user.emailVerified) {
        case .notRequired:
            return nil
        case .unavailable:
            context.annotations.record(outcome: APIErrorCode.mfaMethodUnavailable.error)
            return LoginPage.render(
                for: held, request: request, pages: pages,
                username: user.username, errorKey: APIErrorCode.mfaMethodUnavailable.messageKey, status: .forbidden)
        case .required(let methods):
            let (token, session) = try await flow.begin(
                AuthSessionFlow.Binding(
                    client: client, user: user, scope: authorization.scope,
                    codeChallenge: authorization.codeChallenge, redirectURI: authorization.redirectURI,
                    nonce: authorization.nonce, firstFactor: [AuthenticationMethodReference.password],
                    uiLocales: authorization.uiLocales),
                methods: methods)
            context.annotations.record(outcome: "mfa_required")
            // A passkey is answered on the page (its script), so it is never chosen for the user.
            guard methods.count == 1, methods[0] != .passkey else {
                return page(held, request: request, token: token, methods: methods)
            }
            // One method only: no choice to make.
            do {
                return try await choose(
                    methods[0], token: token, session: session, user: user, held: held, request: request,
                    context: context)
            } catch let failure as MFAFailure {
                return page(
                    held, request: request, token: token, methods: methods,
                    errorKey: failure.code.messageKey, status: .badRequest)
            }
        }
    }

    /// Whether a browser SSO session's authentication is enough for `client`: a session that
    /// used a second factor always is; a password-only one only when neither the client's
    /// policy nor `acr_values` would ask this user for a second factor now.
    func satisfies(
        _ authentication: AuthenticationContext, client: ClientRecord, acrValues: String?
    ) async throws -> Bool {
        if authentication.acr == AuthenticationContextClass.multiFactor { return true }
        guard let user = try await provider.store.user(id: authentication.userID) else { return false }
        let requirement = MFARequirement(
            policy: client.mfaPolicy, requested: MFARequirement.asksForMFA(acrValues), emailFallback: true)
        let usable = try await MFARequirement.usableMethods(
            for: user, mfaStore: provider.store, passkeys: provider.passkeys)
        return requirement.decide(usable: usable, emailVerified: user.emailVerified) == .notRequired
    }

    /// A post of the MFA page (`auth_session` present). `finish` completes the sign-in.
    func resume(
        _ token: String, form: [String: String], held: HeldAuthorization, request: Request,
        context: SesameRequestContext, finish: (AuthenticationContext) async throws -> Response
    ) async throws -> Response {
        let authorization = held.authorization
        let client = held.client
        var methods: [MFAMethod] = []
        do {
            let (session, user) = try await flow.session(token)
            guard session.clientID == client.clientID, session.redirectURI == authorization.redirectURI,
                session.codeChallenge == authorization.codeChallenge, session.scope == authorization.scope,
                session.nonce == authorization.nonce
            else { throw MFAFailure.unknownSession }
            methods = session.methods
            if let text = form[AuthorizationChallengeParameter.passkeyAssertion] {
                // The page's passkey answer (``PasskeyScripts``), for the challenge bound to this session.
                var authentication: AuthenticationContext?
                if let assertion = Passkeys.answer(text, as: AuthenticationResponseJSON.self) {
                    do {
                        authentication = try await flow.verify(passkey: assertion, session: session, user: user, origin: RequestOrigin(context))
                    } catch is PasskeyCeremonyFailure {
                        // Refused (and audited): the page says so.
                    }
                }
                guard let authentication else {
                    return page(
                        held, request: request, token: token, methods: methods,
                        errorKey: APIErrorCode.passkeyInvalid.messageKey, status: .badRequest)
                }
                context.annotations.record(outcome: "mfa_verified_passkey")
                return try await finish(authentication)
            }
            if form[AuthorizationChallengeParameter.mfaMethod] == MFAMethod.passkey.rawValue {
                // Only the page's script answers a passkey: without it, say so.
                return page(
                    held, request: request, token: token, methods: methods, errorKey: "passkeys.unsupported",
                    status: .badRequest)
            }
            if let code = form[AuthorizationChallengeParameter.mfaCode] {
                let authentication = try await flow.verify(
                    code.trimmingCharacters(in: .whitespaces), session: session, user: user, origin: RequestOrigin(context))
                context.annotations.record(outcome: "mfa_verified")
                return try await finish(authentication)
            }
            if let method = form[AuthorizationChallengeParameter.mfaMethod].flatMap(MFAMethod.init(rawValue:)) {
                return try await choose(
                    method, token: token, session: session, user: user, held: held, request: request, context: context)
            }
            return page(held, request: request, token: token, methods: methods)
        } catch let failure as MFAFailure {
            context.annotations.record(outcome: failure.code.error)
            switch failure {
            case .wrongCode, .malformedCode:
                return page(
                    held, request: request, token: token, methods: [], errorKey: failure.code.messageKey,
                    status: .badRequest)
            case .codeExpired, .methodUnavailable, .emailNotVerified, .noMethodChosen:
                return page(
                    held, request: request, token: token, methods: methods,
                    errorKey: failure.code.messageKey, status: .badRequest)
            case .unknownSession, .attemptsExhausted, .tooManyCodes:
                // Start again from the password.
                return LoginPage.render(
                    for: held, request: request, pages: pages,
                    username: "", errorKey: failure.code.messageKey, status: .badRequest)
            }
        }
    }

    private func choose(
        _ method: MFAMethod, token: String, session: AuthSessionRecord, user: UserRecord, held: HeldAuthorization,
        request: Request, context: SesameRequestContext
    ) async throws -> Response {
        let locales = LocalePreference.from(request: request, uiLocales: held.authorization.uiLocales)
        let sentTo = try await flow.choose(method, session: session, user: user, locales: locales, origin: RequestOrigin(context))
        return page(held, request: request, token: token, methods: [], sentTo: sentTo, totp: method == .totp)
    }

    private func page(
        _ held: HeldAuthorization, request: Request, token: String, methods: [MFAMethod],
        sentTo: String? = nil, totp: Bool = false, errorKey: String? = nil, status: HTTPResponse.Status = .ok
    ) -> Response {
        let csrf = pages.csrf.token(for: request)
        var response = pages.renderer.mfa(
            PageRenderer.MFAForm(
                hiddenFields: LoginPage.hiddenFields(held), csrfToken: csrf.value, authSession: token,
                methods: methods, sentTo: sentTo, totp: totp, errorKey: errorKey,
                redirectURI: held.authorization.redirectURI),
            locales: LocalePreference.from(request: request, uiLocales: held.authorization.uiLocales),
            status: status)
        if let cookie = pages.csrf.setCookie(csrf) { response.headers.append(cookie) }
        return response
    }
}

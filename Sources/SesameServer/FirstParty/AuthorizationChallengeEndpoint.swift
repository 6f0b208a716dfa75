import Foundation
import Hummingbird
import SesameProtocol

/// The authorization challenge endpoint of OAuth 2.0 for First-Party Applications
/// (draft-ietf-oauth-first-party-apps §5), `POST /authorize-challenge`, form-encoded (docs/first-party-and-accounts.md;
/// docs/first-party-and-accounts.md). Never the password grant (RFC 9700 §2.4): the password buys an
/// authorization code, redeemed at `/token` with the PKCE verifier.
///
/// One request is one of:
/// - **sign-in**: `username` + `password` (+ client, PKCE, scope, optional `acr_values`,
///   `max_age`), answered with a code (200) or an MFA continuation;
/// - **step-up**: `Authorization: Bearer` + `acr_values=urn:sesame:acr:mfa`, always an MFA
///   continuation (``StepUp``);
/// - **continuation**: `auth_session` + `mfa_method` (send a code) or `mfa_code` (verify).
///
/// A continuation is HTTP 400 `insufficient_authorization` (error_code 2002) carrying
/// `auth_session` and `mfa_methods` (draft §5.2.2). Password guessing is throttled
/// (``LoginThrottle``): HTTP 429 `too_many_attempts` (2009) with `Retry-After`.
struct AuthorizationChallengeEndpoint: Sendable {
    let provider: Provider
    let clientAuthenticator: ClientAuthenticator
    /// Proof-of-work challenges for sign-ins that look automated; `nil`: none.
    let challenges: ChallengeGate?
    let metrics: ServerMetrics
    let passkeySignIn: PasskeySignIn
    let stepUp: StepUp

    func post(_ request: Request, context: SesameRequestContext) async throws -> Response {
        let form = try await FormRequest.body(of: request, context: context)
        let uiLocales = form[AuthorizationChallengeParameter.uiLocales]
        do {
            // Passwords and codes never travel in a URL (security rules).
            if request.uri.query?.isEmpty == false {
                throw EndpointFailure(.invalidRequest, "Send the parameters in the form body, not the URL.")
            }
            if let authSession = form[AuthorizationChallengeParameter.authSession] {
                if let assertion = form[AuthorizationChallengeParameter.passkeyAssertion] {
                    return try await passkeySignIn
                        .finish(authSession, assertion: assertion, form: form, request: request, context: context)
                }
                return try await continueSession(authSession, form: form, request: request, context: context)
            }
            if form[AuthorizationChallengeParameter.challengeType] == AuthorizationChallengeParameter.passkeyChallenge {
                return try await passkeySignIn.start(form, request: request, context: context)
            }
            if BearerAuthentication.credentials(request) != nil {
                return try await stepUp.start(form, request: request, context: context)
            }
            return try await signIn(form, request: request, context: context)
        } catch var error as any APIErrorRendering {
            if error.failure.uiLocales == nil { error.failure.uiLocales = uiLocales }
            throw error as any Error
        } catch let failure as MFAFailure {
            throw failure.providerFailure(uiLocales: uiLocales)
        }
    }

    // MARK: Sign-in with username and password

    private func signIn(
        _ form: [String: String], request: Request, context: SesameRequestContext
    ) async throws -> Response {
        let challenge = try await AuthorizationChallengeRequest.validate(form, request: request, context: context, clientAuthenticator: clientAuthenticator)
        context.annotations.record(clientID: challenge.client.clientID)
        let locales = LocalePreference.from(request: request, uiLocales: challenge.uiLocales)
        let username = (form[AuthorizationChallengeParameter.username] ?? "").trimmingCharacters(in: .whitespaces)
        let password = form[AuthorizationChallengeParameter.password] ?? ""
        let missing = [("username", username), ("password", password)].filter { $0.1.isEmpty }.map(\.0)
        if !missing.isEmpty {
            throw EndpointFailure(
                .validationFailed,
                "\(missing.joined(separator: " and ")) \(missing.count == 1 ? "is" : "are") required.",
                details: missing.map { provider.localizer.fieldError(field: $0, code: "required", locales: locales) })
        }

        // A source that looks automated solves a challenge first (429 with the challenge, no
        // hashing). Then: throttled per login name and address (429, no hashing); otherwise
        // constant work: an unknown user costs one hash verification too.
        try await challenges?.require(
            .signIn, subject: username, clientID: challenge.client.clientID, request: request, context: context)
        let store = provider.store
        let user: UserRecord
        let attempt = LoginAttempt(login: username, origin: RequestOrigin(context))
        let check = try await provider.credentials.checkPassword(
            password, attempt: attempt, user: { try await store.user(login: username) })
        metrics.signIn(check)
        check.record(in: provider.audit, origin: RequestOrigin(context), clientID: challenge.client.clientID)
        switch check {
        case .accepted(let signedIn):
            user = signedIn
        case .rejected:
            context.annotations.record(outcome: "invalid_credentials")
            await challenges?.recordFailure(context: context)
            throw EndpointFailure(.invalidCredentials)
        case .throttled(let retryAfter):
            context.annotations.record(outcome: "password_throttled")
            throw ProviderFailure.tooManyAttempts(retryAfter: retryAfter)
        case .disabled:
            context.annotations.record(outcome: "account_disabled")
            throw ProviderFailure.accountDisabled
        }

        let requirement = MFARequirement(
            policy: challenge.client.mfaPolicy, requested: challenge.asksForMFA, emailFallback: true)
        let usable = try await MFARequirement.usableMethods(
            for: user, mfaStore: provider.store, passkeys: provider.passkeys)
        switch requirement.decide(usable: usable, emailVerified: user.emailVerified) {
        case .notRequired:
            let authentication = AuthenticationContext(
                userID: user.id, authTime: provider.now(), acr: AuthenticationContextClass.password,
                amr: [AuthenticationMethodReference.password])
            return try await issue(challenge, authentication: authentication, context: context)
        case .unavailable:
            throw EndpointFailure(
                .mfaMethodUnavailable,
                "This sign-in needs a second factor but the user has none and no verified email address; verify the email address or enrol TOTP or SMS first.")
        case .required(let methods):
            let (token, _) = try await provider.authSessions.begin(
                AuthSessionFlow.Binding(
                    client: challenge.client, user: user, scope: challenge.scope,
                    codeChallenge: challenge.codeChallenge, firstFactor: [AuthenticationMethodReference.password],
                    reauthentication: challenge.reauthentication, uiLocales: challenge.uiLocales),
                methods: methods)
            context.annotations.record(outcome: "mfa_required")
            metrics.signIn(.mfaRequired)
            throw Self.continuation(
                token, methods: methods, description: "A second factor is required; choose one of mfa_methods.")
        }
    }

    // MARK: Continuation of an auth session

    private func continueSession(
        _ token: String, form: [String: String], request: Request, context: SesameRequestContext
    ) async throws -> Response {
        let flow = provider.authSessions
        let (session, user) = try await flow.session(token)
        // Sessions of the hosted login page continue there only.
        guard session.redirectURI == FirstPartyCode.noRedirectURI else { throw MFAFailure.unknownSession }
        try await authenticateClient(of: session, form: form, request: request, context: context)
        context.annotations.record(clientID: session.clientID)
        let uiLocales = form[AuthorizationChallengeParameter.uiLocales] ?? session.uiLocales
        do {
            if let code = form[AuthorizationChallengeParameter.mfaCode] {
                // Sessions of this endpoint always carry a challenge (PKCE is required here).
                guard let codeChallenge = session.codeChallenge else { throw MFAFailure.unknownSession }
                let authentication = try await flow.verify(code, session: session, user: user, origin: RequestOrigin(context))
                let authorizationCode = try await provider.issueFirstPartyCode(clientID: session.clientID, scope: session.scope,
                    codeChallenge: codeChallenge, authentication: authentication,
                    reauthentication: session.reauthentication)
                context.annotations.record(outcome: "code_issued_mfa")
                return JSONResponse.make(AuthorizationChallengeResponse(authorizationCode: authorizationCode))
            }
            guard let name = form[AuthorizationChallengeParameter.mfaMethod] else {
                throw EndpointFailure(.invalidRequest, "Send mfa_method or mfa_code with auth_session.")
            }
            guard let method = MFAMethod(rawValue: name) else {
                throw EndpointFailure(.invalidRequest, "mfa_method must be email, sms, totp or passkey.")
            }
            if method == .passkey {
                return try await passkeySignIn.stepUpOptions(token, session: session, user: user)
            }
            let locales = LocalePreference.from(request: request, uiLocales: uiLocales)
            let destination = try await flow.choose(method, session: session, user: user, locales: locales, origin: RequestOrigin(context))
            context.annotations.record(outcome: "mfa_method_chosen")
            throw Self.continuation(
                token, methods: [method],
                description: destination.map { "A code was sent to \($0)." }
                    ?? "Enter the code from the authenticator app.")
        } catch let failure as MFAFailure {
            throw failure.providerFailure(uiLocales: uiLocales)
        } catch var error as any APIErrorRendering {
            if error.failure.uiLocales == nil { error.failure.uiLocales = uiLocales }
            throw error as any Error
        }
    }

    /// Continuations authenticate confidential clients again; a public client may omit
    /// `client_id`, but if sent it must name the session's client.
    private func authenticateClient(
        of session: AuthSessionRecord, form: [String: String], request: Request, context: SesameRequestContext
    ) async throws {
        try await Self.authenticateClient(session.clientID, form: form, request: request, context: context, clientAuthenticator: clientAuthenticator)
    }

    /// The rule of ``authenticateClient(of:form:request:)`` for the client `clientID`.
    static func authenticateClient(
        _ clientID: String, form: [String: String], request: Request, context: SesameRequestContext,
        clientAuthenticator: ClientAuthenticator
    ) async throws {
        let store = clientAuthenticator.store
        let basic = try ClientAuthenticator.basicCredentials(request)
        if form[OAuthParameter.clientID] != nil || basic != nil {
            let client = try await clientAuthenticator.authenticate(request, form: form, context: context)
            guard client.clientID == clientID else { throw MFAFailure.unknownSession }
            return
        }
        guard let client = try await store.client(id: clientID) else {
            throw MFAFailure.unknownSession
        }
        if client.isConfidential {
            throw EndpointFailure(
                .invalidClient, "Authenticate the client on every request: send client_id and its secret.",
                status: .unauthorized)
        }
    }

    // MARK: Answers

    private func issue(
        _ challenge: AuthorizationChallengeRequest, authentication: AuthenticationContext,
        context: SesameRequestContext
    ) async throws -> Response {
        let code = try await provider.issueFirstPartyCode(clientID: challenge.client.clientID, scope: challenge.scope,
            codeChallenge: challenge.codeChallenge, authentication: authentication,
            reauthentication: challenge.reauthentication)
        context.annotations.record(outcome: "code_issued_password")
        return JSONResponse.make(AuthorizationChallengeResponse(authorizationCode: code))
    }

    /// draft §5.2.2: `insufficient_authorization` with the session to continue.
    static func continuation(_ token: String, methods: [MFAMethod], description: String) -> ChallengeContinuation {
        ChallengeContinuation(
            failure: ProviderFailure(.insufficientAuthorization, description), authSession: token, methods: methods)
    }
}

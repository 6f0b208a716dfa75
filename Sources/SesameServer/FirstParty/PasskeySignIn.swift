import Foundation
import Hummingbird
import SesameProtocol

/// Passkeys at `POST /authorize-challenge` (docs/passkeys.md), in the draft's
/// `insufficient_authorization` pattern (draft-ietf-oauth-first-party-apps §5.2.2):
///
/// - **first factor**: `challenge_type=passkey` with the client, PKCE and scope (and optionally
///   `username`) answers 400 with `auth_session` and `passkey_options` (WebAuthn §5.5, UV
///   required; without a known username, a discoverable credential is asked for). The app sends
///   `auth_session` and `passkey_assertion`; after §7.2 it gets a code whose tokens carry `acr`
///   `urn:sesame:acr:mfa` and `amr` `[hwk|swk, user, pin, mfa]`.
/// - **second factor**: in an MFA continuation or a step-up whose `mfa_methods` include
///   `passkey`, `mfa_method=passkey` answers with `passkey_options` for the user's passkeys; the
///   assertion completes it like a code would, adding the passkey's `amr` values and `mfa`.
///
/// The challenge is bound to the `auth_session` (its digest): an assertion made for another
/// session, another user or another ceremony is refused (§7.2 step 11).
struct PasskeySignIn: Sendable {
    let provider: Provider
    let clientAuthenticator: ClientAuthenticator
    let metrics: ServerMetrics

    /// What the sign-in continues with (the challenge record's payload).
    struct Pending: Codable, Sendable {
        var scope: String
        var codeChallenge: String
        var reauthentication: Bool
        var uiLocales: String?
    }

    func start(_ form: [String: String], request: Request, context: SesameRequestContext) async throws -> Response {
        let passkeys = provider.passkeys
        let challenge = try await AuthorizationChallengeRequest.validate(form, request: request, context: context, clientAuthenticator: clientAuthenticator)
        context.annotations.record(clientID: challenge.client.clientID)
        // A username narrows the options to that user's passkeys; an unknown one, or one without
        // passkeys, gets the same answer as none (nothing says whether the account exists).
        var userID: String?
        let username = (form[AuthorizationChallengeParameter.username] ?? "").trimmingCharacters(in: .whitespaces)
        if !username.isEmpty, let user = try await provider.store.user(login: username),
            try await !passkeys.store.passkeys(userID: user.id).isEmpty
        {
            userID = user.id
        }
        let token = SecureRandom.token()
        let pending = Pending(
            scope: challenge.scope, codeChallenge: challenge.codeChallenge,
            reauthentication: challenge.reauthentication, uiLocales: challenge.uiLocales)
        let payload = String(decoding: try JSONEncoder().encode(pending), as: UTF8.self)
        let options = try await passkeys.requestOptions(
            .signIn, userID: userID, binding: SecretDigest.of(token), clientID: challenge.client.clientID, payload: payload)
        context.annotations.record(outcome: "passkey_options")
        throw ChallengeContinuation(
            failure: ProviderFailure(
                .insufficientAuthorization, "Sign in with a passkey: answer passkey_options with passkey_assertion and this auth_session."),
            authSession: token, methods: [.passkey], passkeyOptions: options)
    }

    /// `mfa_method=passkey` in an MFA continuation or step-up.
    func stepUpOptions(_ token: String, session: AuthSessionRecord, user: UserRecord) async throws -> Response {
        guard session.methods.contains(.passkey) else {
            let offered = session.methods.map(\.rawValue).joined(separator: ", ")
            throw MFAFailure.methodUnavailable("mfa_method passkey is not available for this sign-in; choose one of: \(offered).")
        }
        let options = try await provider.passkeys.requestOptions(
            .stepUp, userID: user.id, binding: session.sessionDigest, clientID: session.clientID)
        throw ChallengeContinuation(
            failure: ProviderFailure(
                .insufficientAuthorization, "Confirm with a passkey: answer passkey_options with passkey_assertion and this auth_session."),
            authSession: token, methods: [.passkey], passkeyOptions: options)
    }

    /// `auth_session` + `passkey_assertion`.
    func finish(
        _ token: String, assertion text: String, form: [String: String], request: Request, context: SesameRequestContext
    ) async throws -> Response {
        let passkeys = provider.passkeys
        guard !token.isEmpty, token.utf8.count <= 256 else { throw MFAFailure.unknownSession }
        guard let assertion = Passkeys.answer(text, as: AuthenticationResponseJSON.self) else {
            throw PasskeyRefusal.malformedCredential("passkey_assertion is not an AuthenticationResponseJSON")
                .endpointFailure(registration: false)
        }
        // A step-up's session must still be live and of this endpoint before the challenge is spent.
        let flow = provider.authSessions
        if let (session, user) = try? await flow.session(token) {
            guard session.redirectURI == FirstPartyCode.noRedirectURI, let codeChallenge = session.codeChallenge else {
                throw MFAFailure.unknownSession
            }
            try await AuthorizationChallengeEndpoint.authenticateClient(
                session.clientID, form: form, request: request, context: context, clientAuthenticator: clientAuthenticator)
            context.annotations.record(clientID: session.clientID)
            guard
                let authentication = try await flow.verify(
                    passkey: assertion, session: session, user: user, origin: RequestOrigin(context))
            else { throw MFAFailure.unknownSession }
            let code = try await provider.issueFirstPartyCode(clientID: session.clientID, scope: session.scope, codeChallenge: codeChallenge,
                authentication: authentication, reauthentication: session.reauthentication)
            context.annotations.record(outcome: "code_issued_passkey_mfa")
            return JSONResponse.make(AuthorizationChallengeResponse(authorizationCode: code))
        }
        let (challenge, verified) = try await passkeys.authenticate(
            assertion, purposes: [.signIn], binding: SecretDigest.of(token), origin: RequestOrigin(context))
        guard let clientID = challenge.clientID else { throw MFAFailure.unknownSession }
        context.annotations.record(clientID: clientID)
        try await AuthorizationChallengeEndpoint.authenticateClient(clientID, form: form, request: request, context: context, clientAuthenticator: clientAuthenticator)
        guard let payload = challenge.payload, let pending = try? JSONDecoder().decode(Pending.self, from: Data(payload.utf8)),
            let user = try await provider.store.user(id: verified.passkey.userID)
        else { throw MFAFailure.unknownSession }
        guard !user.isDisabled else { throw ProviderFailure.accountDisabled }
        let authentication = PasskeyAuthenticationContext.signIn(verified.passkey, flags: verified.flags, at: provider.now())
        metrics.signIn(.success)
        let code = try await provider.issueFirstPartyCode(clientID: clientID, scope: pending.scope, codeChallenge: pending.codeChallenge,
            authentication: authentication, reauthentication: pending.reauthentication)
        context.annotations.record(outcome: "code_issued_passkey")
        return JSONResponse.make(AuthorizationChallengeResponse(authorizationCode: code))
    }
}

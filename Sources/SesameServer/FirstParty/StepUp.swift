import Foundation
import Hummingbird
import SesameProtocol

/// Step-up of an existing session (docs/first-party-and-accounts.md): the app presents its
/// current access token (`Authorization: Bearer`, RFC 6750 §2.1) with `client_id`,
/// `acr_values=urn:sesame:acr:mfa` and fresh PKCE parameters, and gets an MFA continuation.
/// The code that completes it carries `acr` `urn:sesame:acr:mfa` and `amr` with `mfa`.
///
/// Only enrolled second factors are offered: a user without one is told to enrol (2006).
/// The client must be first-party (``AuthorizationChallengeRequest/requireFirstParty(_:)``)
/// and the token must be its own, so a third-party token cannot start a step-up.
struct StepUp: Sendable {
    let provider: Provider
    let bearer: BearerAuthentication
    let clientAuthenticator: ClientAuthenticator

    func start(_ form: [String: String], request: Request, context: SesameRequestContext) async throws -> Response {
        let (claims, user) = try await bearer.authenticate(request, context: context)
        let challenge = try await AuthorizationChallengeRequest.validate(
            form, request: request, context: context, clientAuthenticator: clientAuthenticator, defaultScope: claims.scope)
        context.annotations.record(clientID: challenge.client.clientID)
        guard ConstantTime.equals(claims.clientID, challenge.client.clientID) else {
            throw EndpointFailure(.invalidGrant, "The access token was issued to another client.")
        }
        guard challenge.namesMFA else {
            throw EndpointFailure(
                .invalidRequest,
                "A step-up needs acr_values=\(AuthenticationContextClass.multiFactor); to sign in with a password, send no Authorization header.")
        }
        let methods = try await MFARequirement.usableMethods(
            for: user, mfaStore: provider.store, passkeys: provider.passkeys)
        guard !methods.isEmpty else {
            throw EndpointFailure(
                .mfaMethodUnavailable,
                "The user has no second factor; enrol one first (POST /api/mfa/totp, /api/mfa/sms, /api/mfa/email or /api/passkeys).")
        }
        let (token, _) = try await provider.authSessions.begin(
            AuthSessionFlow.Binding(
                client: challenge.client, user: user, scope: challenge.scope,
                codeChallenge: challenge.codeChallenge,
                firstFactor: claims.amr ?? [AuthenticationMethodReference.password],
                reauthentication: challenge.reauthentication, uiLocales: challenge.uiLocales),
            methods: methods)
        context.annotations.record(outcome: "step_up_required")
        throw AuthorizationChallengeEndpoint.continuation(
            token, methods: methods, description: "Step-up: confirm with a second factor; choose one of mfa_methods.")
    }
}

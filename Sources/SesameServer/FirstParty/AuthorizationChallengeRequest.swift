import Foundation
import Hummingbird
import SesameProtocol

/// The validated parameters that start a first-party sign-in or a step-up at
/// `POST /authorize-challenge` (draft-ietf-oauth-first-party-apps §5.1; docs/first-party-and-accounts.md),
/// checked in the order of the authorization endpoint: client, grant, PKCE, scope.
struct AuthorizationChallengeRequest: Sendable {
    var client: ClientRecord
    var scopes: [String]
    /// RFC 7636 S256 challenge.
    var codeChallenge: String
    var acrValues: String?
    /// `max_age=0`: re-authentication (short-lived access token, no refresh token).
    var reauthentication: Bool
    var uiLocales: String?

    var scope: String { ScopeList.format(scopes) }
    /// `acr_values` accept only `urn:sesame:acr:mfa` (``RequestedACR/requiresMultiFactor``).
    var asksForMFA: Bool { MFARequirement.asksForMFA(acrValues) }
    /// `acr_values` name `urn:sesame:acr:mfa`, as a step-up must (``StepUp``).
    var namesMFA: Bool { RequestedACR(acrValues).mentionsMultiFactor }

    /// Longest accepted parameter value (as for `/authorize`).
    static let maxParameterLength = AuthorizationRequestValidator.maxParameterLength

    /// Authenticates the client (`client_secret_basic`/`_post`, or `client_id` alone for public
    /// clients) and validates the rest. `defaultScope` applies when `scope` is absent (step-up
    /// keeps the token's scope).
    static func validate(
        _ form: [String: String], request: Request, context: SesameRequestContext, clientAuthenticator: ClientAuthenticator,
        defaultScope: String? = nil
    ) async throws -> AuthorizationChallengeRequest {
        if form.values.contains(where: { $0.count > maxParameterLength }) {
            throw EndpointFailure(.invalidRequest, "A parameter is longer than \(maxParameterLength) characters.")
        }
        let client = try await clientAuthenticator.authenticate(request, form: form, context: context)
        try requireFirstParty(client)
        guard client.grantTypes.contains(.authorizationCode) else {
            throw EndpointFailure(.unauthorizedClient, "This client may not use the authorization code grant.")
        }
        // PKCE S256 always, confidential clients included: first-party clients are apps, and
        // the code is redeemed by whoever holds the verifier (RFC 9700 §2.1.1,
        // draft-ietf-oauth-first-party-apps §5.1). An absent method means plain, which is refused.
        let challenge: String
        do throws(PKCEParameters.Refusal) {
            challenge = try PKCEParameters.requiredChallenge(in: form)
        } catch {
            throw EndpointFailure(error.code, error.description)
        }
        let scopes = ScopeList.parse(form[OAuthParameter.scope] ?? defaultScope)
        guard !scopes.isEmpty else { throw EndpointFailure(.invalidScope, "scope is required.") }
        let allowed = try await ResourceAuthorization(store: clientAuthenticator.store).allowedScopes(client)
        if let disallowed = scopes.first(where: { !allowed.contains($0) }) {
            throw EndpointFailure(.invalidScope, AuthorizationRequestValidator.disallowedScope(disallowed))
        }
        var reauthentication = false
        if let text = form[OAuthParameter.maxAge] {
            guard let maxAge = Int(text), maxAge >= 0 else {
                throw EndpointFailure(.invalidRequest, "max_age must be a non-negative number of seconds.")
            }
            // A password sign-in is always fresh; only 0 changes what is issued.
            reauthentication = maxAge == 0
        }
        return AuthorizationChallengeRequest(
            client: client, scopes: scopes, codeChallenge: challenge, acrValues: form[OAuthParameter.acrValues],
            reauthentication: reauthentication, uiLocales: form[OAuthParameter.uiLocales])
    }

    /// The endpoint is for first-party clients only (draft-ietf-oauth-first-party-apps,
    /// Security Considerations, "First-Party Applications"): a third-party app must never see
    /// the user's password. Applies to sign-in and step-up; continuations are bound to the
    /// client that started them.
    static func requireFirstParty(_ client: ClientRecord) throws {
        guard client.firstParty else {
            throw EndpointFailure(
                .unauthorizedClient,
                "'\(client.clientID)' is not a first-party client, so it may not use /authorize-challenge. "
                    + "Register the client as first-party (seed `first_party: true` or "
                    + "`sesame client add --first-party`) or sign in through the browser at /authorize.")
        }
    }
}

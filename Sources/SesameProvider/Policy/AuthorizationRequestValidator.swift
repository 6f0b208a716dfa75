import Foundation
import SesameProtocol
import SesameStore

/// Validates `/authorize` parameters (and the same parameters re-posted by the login form),
/// in the order RFC 6749 §4.1.2.1 requires: first the client and redirect URI (failures show an
/// error page), then everything else (failures redirect back with `error`).
///
/// The device verification page's own sign-in (RFC 8628 §3.3, ``DeviceAuthorizations``) is an
/// authorization request for the device's client with the server's ``deviceCallbackURI``: that
/// redirect URI is accepted for a client registered for the device grant, which needs no
/// registered redirect URI or authorization code grant of its own.
package struct AuthorizationRequestValidator: Sendable {
    package let store: any IdentityStore
    /// `<issuer>/device/callback`, or `nil` when the server has no device verification page.
    package let deviceCallbackURI: String?

    package init(store: any IdentityStore, deviceCallbackURI: String? = nil) {
        self.store = store
        self.deviceCallbackURI = deviceCallbackURI
    }
    /// Longest accepted parameter value; keeps hidden fields and logs bounded.
    package static let maxParameterLength = 2048

    package func validate(_ parameters: [String: String]) async throws -> (AuthorizationRequest, ClientRecord) {
        // 1. client_id must name a registered client (no redirect otherwise).
        guard let clientID = parameters[OAuthParameter.clientID], !clientID.isEmpty,
            clientID.count <= Self.maxParameterLength
        else {
            throw AuthorizationRequestError.page(code: .invalidRequest, description: "client_id is required.")
        }
        guard let client = try await store.client(id: clientID) else {
            throw AuthorizationRequestError.page(
                code: .unknownClient, description: "client_id is not registered.")
        }
        // 2. redirect_uri is required (OIDC Core §3.1.2.1) and must match exactly, loopback
        //    port excepted (RFC 9700 §4.1.3, RFC 8252 §7.3).
        let redirectURI = parameters[OAuthParameter.redirectURI] ?? ""
        let deviceSignIn =
            deviceCallbackURI != nil && redirectURI == deviceCallbackURI && client.grantTypes.contains(.deviceCode)
        guard !redirectURI.isEmpty, deviceSignIn || RedirectURIMatcher.match(redirectURI, registered: client.redirectURIs) != nil
        else {
            throw AuthorizationRequestError.page(
                code: .invalidRedirectURI,
                description: "redirect_uri is missing or does not match a registered redirect URI.")
        }
        let state = parameters[OAuthParameter.state]
        func fail(_ code: APIErrorCode, _ description: String) -> AuthorizationRequestError {
            .redirect(code: code, description: description, redirectURI: redirectURI, state: state)
        }

        // 3. No parameter may be absurdly long.
        if parameters.values.contains(where: { $0.count > Self.maxParameterLength }) {
            throw fail(.invalidRequest, "A parameter is longer than \(Self.maxParameterLength) characters.")
        }
        // 4. Request objects and dynamic registration are not supported: each parameter gets
        //    its own OIDC error (OIDC Core §6.1, §6.2, §7.2.1; see ``UnsupportedRequestParameter``).
        if let unsupported = UnsupportedRequestParameter.first(in: parameters) {
            throw fail(unsupported.code, unsupported.description)
        }
        // 5. response_type=code only (RFC 9700 §2.1.2); response_mode query only.
        guard parameters[OAuthParameter.responseType] == "code" else {
            throw fail(.unsupportedResponseType, "response_type must be code.")
        }
        if let mode = parameters[OAuthParameter.responseMode], mode != "query" {
            throw fail(.invalidRequest, "response_mode must be query.")
        }
        guard client.grantTypes.contains(.authorizationCode) || deviceSignIn else {
            throw fail(.unauthorizedClient, "This client may not use the authorization code grant.")
        }
        // 6. PKCE S256, required from public clients, optional for confidential ones
        //    (RFC 9700 §2.1.1, RFC 8252 §8.1). An absent method means plain (RFC 7636 §4.3),
        //    which is refused whenever a challenge is sent.
        let challenge: String?
        do throws(PKCEParameters.Refusal) {
            // FAPI 2.0 §5.3.2.2 item 4: PKCE S256 from every client of the profile.
            challenge = try PKCEParameters.challenge(
                in: parameters, required: !client.isConfidential || client.securityProfile == .fapi2)
        } catch {
            throw fail(error.code, error.description)
        }
        // 7. Scopes: present, and each allowed for this client.
        let scopes = ScopeList.parse(parameters[OAuthParameter.scope])
        guard !scopes.isEmpty else { throw fail(.invalidScope, "scope is required.") }
        let resourceAuthorization = ResourceAuthorization(store: store)
        let allowedScopes = try await resourceAuthorization.allowedScopes(client)
        if let disallowed = scopes.first(where: { !allowedScopes.contains($0) }) {
            throw fail(.invalidScope, Self.disallowedScope(disallowed))
        }
        // 8. prompt and max_age (OIDC Core §3.1.2.1).
        let prompt = try Self.prompt(parameters, fail: fail)
        // 9. The claims parameter (OIDC Core §5.5), granted within the client's scopes. An
        //    empty value counts as absent (RFC 6749 §3.1).
        var claims: RequestedClaims?
        if let text = parameters[OAuthParameter.claims], !text.isEmpty {
            do throws(RequestedClaimsRefusal) {
                claims = try RequestedClaims(parsing: text, allowedScopes: Set(client.allowedScopes))
            } catch {
                throw fail(error.code, error.description)
            }
        }

        // 10. dpop_jkt (RFC 9449 §10): a SHA-256 JWK thumbprint, 43 base64url characters.
        let dpopJKT = parameters[DPoP.jktParameter].flatMap { $0.isEmpty ? nil : $0 }
        if let dpopJKT, dpopJKT.utf8.count != 43 || Base64URL.decode(dpopJKT)?.count != 32 {
            throw fail(.invalidRequest, "dpop_jkt must be the base64url SHA-256 JWK thumbprint (RFC 7638) of the DPoP key: 43 characters.")
        }

        // 11. resource (RFC 8707 §2): the client's registered APIs, else its default API.
        let audience: TokenAudience
        do {
            audience = try await resourceAuthorization.audience(
                requested: try ResourceIndicator.parse(parameters[OAuthParameter.resource]), authorized: nil, client: client)
        } catch let refusal as ProviderFailure {
            throw fail(refusal.code, refusal.description ?? refusal.code.error)
        }

        var request = AuthorizationRequest(
            clientID: client.clientID, redirectURI: redirectURI, scopes: scopes, state: state,
            nonce: parameters[OAuthParameter.nonce], codeChallenge: challenge, prompt: prompt,
            loginHint: parameters[OAuthParameter.loginHint], acrValues: parameters[OAuthParameter.acrValues],
            uiLocales: parameters[OAuthParameter.uiLocales], claims: claims, dpopJKT: dpopJKT)
        request.resources = audience.identifiers
        return (request, client)
    }

    private static func prompt(
        _ parameters: [String: String], fail: (APIErrorCode, String) -> AuthorizationRequestError
    ) throws -> PromptPolicy {
        let values = Set((parameters[OAuthParameter.prompt] ?? "").split(separator: " ").map(String.init))
        if let unknown = values.first(where: { !PromptPolicy.knownValues.contains($0) }) {
            throw fail(.invalidRequest, "prompt value '\(unknown)' is not supported.")
        }
        if values.contains("none") && values.count > 1 {
            throw fail(.invalidRequest, "prompt=none cannot be combined with other values.")
        }
        var maxAge: Int?
        if let text = parameters[OAuthParameter.maxAge] {
            guard let value = Int(text), value >= 0 else {
                throw fail(.invalidRequest, "max_age must be a non-negative number of seconds.")
            }
            maxAge = value
        }
        return PromptPolicy(values: values, maxAge: maxAge)
    }

    /// The refusal of a scope the client may not request; `device_sso` says how a client gets it.
    package static func disallowedScope(_ scope: String) -> String {
        scope == NativeSSO.scope
            ? "Scope '\(scope)' needs a client in an app group (sesame client add --app-group NAME)."
            : "Scope '\(scope)' is not allowed for this client."
    }
}

import Foundation
import Logging
import SesameProtocol

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Talks to the token endpoint (RFC 6749 §3.2) and the revocation endpoint (RFC 7009):
/// code exchange with the PKCE verifier (RFC 7636 §4.5), refresh (RFC 6749 §6), the device
/// authorization grant (RFC 8628) and revocation. Authenticates as a public client (`client_id` only) or, with a secret, with
/// `client_secret_basic` (or `client_secret_post` when that is all the provider supports).
/// Learns the server clock offset from each response's `Date` header.
struct TokenEndpointClient: Sendable {
    let configuration: SesameConfiguration
    let http: ProviderHTTP
    let clock: any SesameClock
    let clockOffset: ServerClockOffset
    let logger: Logger
    /// Signs RFC 7523 client assertions when the app uses `private_key_jwt`.
    var assertionSigner: ClientAssertionSigner? = nil
    /// Builds DPoP proofs (RFC 9449) and keeps the servers' nonces.
    var dpop = DPoPProofSigner()

    /// RFC 6749 §4.1.3 + RFC 7636 §4.5. `redirectURI` is `nil` for codes from the
    /// authorization challenge endpoint (draft-ietf-oauth-first-party-apps §5.2.1), which had no
    /// redirect: the parameter is then omitted.
    ///
    /// - Parameter deviceSecret: the Native SSO `device_secret` the device already has (draft 07
    ///   §3.2: the app MUST send it when it asks for `device_sso` and has one).
    func exchange(
        code: String, verifier: String, redirectURI: URL?, metadata: ProviderMetadata, deviceSecret: String? = nil,
        dpopKey: (any DPoPKey)? = nil
    ) async throws(SesameError) -> TokenResponse {
        logger.debug("exchanging authorization code", metadata: ["code": "\(Redaction.redact(code))"])
        var parameters = [(OAuthParameter.grantType, GrantType.authorizationCode.rawValue), (OAuthParameter.code, code)]
        if let redirectURI { parameters.append((OAuthParameter.redirectURI, redirectURI.absoluteString)) }
        parameters.append((OAuthParameter.codeVerifier, verifier))
        if let deviceSecret { parameters.append((NativeSSO.deviceSecretParameter, deviceSecret)) }
        return try await tokenRequest(parameters, metadata: metadata, dpopKey: dpopKey)
    }

    /// RFC 6749 §6, with the Native SSO device secret when the session has one (draft 07 §3.2:
    /// SHOULD, so the server can rotate it).
    /// RFC 6749 §6; with `resource`, an access token for that API alone (RFC 8707 §2.2).
    func refresh(
        refreshToken: String, metadata: ProviderMetadata, deviceSecret: String? = nil, dpopKey: (any DPoPKey)? = nil,
        resource: URL? = nil
    ) async throws(SesameError) -> TokenResponse {
        logger.debug("refreshing tokens", metadata: ["refresh_token": "\(Redaction.redact(refreshToken))"])
        var parameters = [
            (OAuthParameter.grantType, GrantType.refreshToken.rawValue), (OAuthParameter.refreshToken, refreshToken),
        ]
        if let deviceSecret { parameters.append((NativeSSO.deviceSecretParameter, deviceSecret)) }
        if let resource { parameters.append((OAuthParameter.resource, resource.absoluteString)) }
        return try await tokenRequest(parameters, metadata: metadata, dpopKey: dpopKey)
    }

    /// Native SSO 1.0 §4.1: the sibling app's ID token (subject) and the device secret (actor)
    /// for this app's own tokens, at the token endpoint (RFC 8693 §2.1). The audience is the
    /// issuer; the scopes include `openid`.
    func exchangeForSSO(
        idToken: String, deviceSecret: String, scopes: [String], metadata: ProviderMetadata, dpopKey: (any DPoPKey)? = nil
    ) async throws(SesameError) -> TokenResponse {
        logger.debug("exchanging a sibling app's sign-in", metadata: ["device_secret": "\(Redaction.redact(deviceSecret))"])
        let tokens = try await tokenRequest(
            [
                (OAuthParameter.grantType, TokenExchange.grantType), (TokenExchange.Parameter.audience, metadata.issuer),
                (TokenExchange.Parameter.subjectToken, idToken),
                (TokenExchange.Parameter.subjectTokenType, TokenExchange.TokenType.idToken),
                (TokenExchange.Parameter.actorToken, deviceSecret),
                (TokenExchange.Parameter.actorTokenType, TokenExchange.TokenType.deviceSecret),
                (OAuthParameter.scope, ScopeList.format(scopes)),
            ],
            metadata: metadata, dpopKey: dpopKey)
        // §4.4: issued_token_type is REQUIRED and names an access token.
        guard tokens.issuedTokenType == TokenExchange.TokenType.accessToken else {
            throw .protocolViolation(
                "the token exchange answered issued_token_type \"\(tokens.issuedTokenType ?? "")\"; Native SSO 1.0 section 4.4 requires \(TokenExchange.TokenType.accessToken)")
        }
        return tokens
    }

    /// Federation (docs/federation.md): another provider's ID token exchanged for this app's
    /// tokens (RFC 8693 §2.1), the provider named by `subject_issuer`.
    func exchangeProviderToken(
        _ idToken: String, provider: String, nonce: String?, scopes: [String], metadata: ProviderMetadata,
        dpopKey: (any DPoPKey)? = nil
    ) async throws(SesameError) -> TokenResponse {
        var parameters = [
            (OAuthParameter.grantType, TokenExchange.grantType), (TokenExchange.Parameter.subjectToken, idToken),
            (TokenExchange.Parameter.subjectTokenType, TokenExchange.TokenType.idToken),
            (Federation.subjectIssuerParameter, provider), (OAuthParameter.scope, ScopeList.format(scopes)),
        ]
        if let nonce { parameters.append((Federation.nonceParameter, nonce)) }
        return try await tokenRequest(parameters, metadata: metadata, dpopKey: dpopKey)
    }

    /// RFC 6749 §4.4 client credentials: a token for the app itself.
    func clientCredentials(scopes: [String]?, metadata: ProviderMetadata) async throws(SesameError) -> TokenResponse {
        var parameters = [(OAuthParameter.grantType, GrantType.clientCredentials.rawValue)]
        if let scopes, !scopes.isEmpty { parameters.append((OAuthParameter.scope, ScopeList.format(scopes))) }
        return try await tokenRequest(parameters, metadata: metadata)
    }

    /// The PIN unlock grant (docs/pin-devices.md): the nonce signed with the PIN-unsealed key.
    func pinUnlock(
        registrationID: String, nonce: String, signature: Data, metadata: ProviderMetadata, dpopKey: (any DPoPKey)? = nil
    ) async throws(SesameError) -> TokenResponse {
        try await tokenRequest(
            [
                (OAuthParameter.grantType, PINUnlock.grantType), (PINUnlock.registrationIDParameter, registrationID),
                (PINUnlock.nonceParameter, nonce), (PINUnlock.signatureParameter, Base64URL.encode(signature)),
            ],
            metadata: metadata, dpopKey: dpopKey)
    }

    /// RFC 8628 §3.1: asks the device authorization endpoint for a device code and a user code,
    /// with the client authentication of the token endpoint (§3.1: "as described in Section 3.2.1
    /// of [RFC6749]"). `deviceName` is Sesame's `device_name`, shown to the approving user. A
    /// refusal is the server's error (RFC 6749 §5.2), as at the token endpoint.
    func deviceAuthorization(
        endpoint: URL, scopes: [String], deviceName: String?, metadata: ProviderMetadata
    ) async throws(SesameError) -> DeviceAuthorizationResponse {
        var parameters = [(OAuthParameter.scope, ScopeList.format(scopes))]
        if let deviceName { parameters.append((DeviceName.parameter, deviceName)) }
        let request = try await makeRequest(endpoint, parameters, metadata: metadata)
        let (data, response) = try await http.send(request)
        clockOffset.learn(dateHeader: response.value(forHTTPHeaderField: "Date"), localNow: clock.now())
        return try ProviderHTTP.decode(
            DeviceAuthorizationResponse.self, data: data, response: response, what: "device authorization")
    }

    /// RFC 8628 §3.4: one poll with the `device_code`, through the same path as every token
    /// request (client authentication, a DPoP proof of `dpopKey` and its nonce retry). The
    /// §3.5 answers `authorization_pending`, `slow_down`, `access_denied` and `expired_token`
    /// are outcomes, not errors; any other refusal is thrown.
    func pollDeviceCode(_ deviceCode: String, metadata: ProviderMetadata, dpopKey: (any DPoPKey)? = nil)
        async throws(SesameError) -> DevicePollOutcome
    {
        do {
            return .tokens(
                try await tokenRequest(
                    [(OAuthParameter.grantType, GrantType.deviceCode.rawValue), (DeviceAuthorization.deviceCodeParameter, deviceCode)],
                    metadata: metadata, dpopKey: dpopKey))
        } catch {
            guard let outcome = DevicePollOutcome(refusal: error) else { throw error }
            return outcome
        }
    }

    /// RFC 9126 §2: pushes the authorization request's parameters with the client's
    /// authentication and returns the `request_uri` (HTTP 201). The server's refusal (the error
    /// `/authorize` would have given) is thrown as the server's error.
    /// With `dpopKey` the push carries a proof, which binds the code to the key (RFC 9449 §10.1).
    func push(
        _ parameters: [(String, String)], endpoint: URL, metadata: ProviderMetadata, dpopKey: (any DPoPKey)? = nil
    ) async throws(SesameError) -> PushedAuthorizationResponse {
        // The client authentication adds client_id itself (RFC 9126 §2.1 requires it for public
        // clients); the request's own copy is left out so it is not sent twice.
        let (data, response) = try await sendWithProof(dpopKey) { () async throws(SesameError) -> URLRequest in
            try await makeRequest(endpoint, parameters.filter { $0.0 != OAuthParameter.clientID }, metadata: metadata)
        }
        guard response.statusCode == 201 else {
            throw ProviderHTTP.error(data: data, status: response.statusCode, what: "pushed authorization request")
        }
        let pushed = try ProviderHTTP.decode(
            PushedAuthorizationResponse.self, data: data, response: response, what: "pushed authorization request")
        guard pushed.requestURI.hasPrefix("urn:") || pushed.requestURI.hasPrefix("https:"), pushed.requestURI.count <= 2048 else {
            throw .protocolViolation("the pushed authorization response's request_uri is not a URN or https URI")
        }
        return pushed
    }

    /// RFC 7009 §2.1. Throws ``SesameError/Code-swift.struct/invalidConfiguration`` when the provider has no
    /// revocation endpoint.
    func revoke(token: String, hint: TokenTypeHint, metadata: ProviderMetadata) async throws(SesameError) {
        guard let endpoint = metadata.revocationEndpoint else {
            throw .invalidConfiguration("the provider advertises no revocation_endpoint; log out locally only (revoke: false)")
        }
        let request = try await makeRequest(
            endpoint, [(OAuthParameter.token, token), (OAuthParameter.tokenTypeHint, hint.rawValue)], metadata: metadata)
        let (data, response) = try await http.send(request)
        // RFC 7009 §2.2: 200 for success, also for tokens that were already invalid.
        guard response.statusCode == 200 else {
            throw ProviderHTTP.error(data: data, status: response.statusCode, what: "revocation")
        }
    }

    private func tokenRequest(_ parameters: [(String, String)], metadata: ProviderMetadata, dpopKey: (any DPoPKey)? = nil)
        async throws(SesameError) -> TokenResponse
    {
        let (data, response) = try await sendWithProof(dpopKey) { () async throws(SesameError) -> URLRequest in
            try await makeRequest(metadata.tokenEndpoint, parameters, metadata: metadata)
        }
        clockOffset.learn(dateHeader: response.value(forHTTPHeaderField: "Date"), localNow: clock.now())
        let tokens = try ProviderHTTP.decode(TokenResponse.self, data: data, response: response, what: "token")
        // RFC 9449 §5: a server that does not do DPoP answers Bearer; one that does, DPoP.
        let type = tokens.tokenType.lowercased()
        guard type == "bearer" || (type == "dpop" && dpopKey != nil) else {
            throw .protocolViolation(
                "the token endpoint returned token_type \"\(tokens.tokenType)\"; only Bearer (and DPoP with a proof) is supported")
        }
        guard !tokens.accessToken.isEmpty else {
            throw .technical(.malformedResponse("the token response has an empty access_token"))
        }
        return tokens
    }

    /// A form POST to `endpoint` carrying the client authentication (also used for the
    /// authorization challenge endpoint, where clients authenticate the same way). With a
    /// `bearerToken` (step-up, draft-ietf-oauth-first-party-apps §5.1) the `Authorization`
    /// header carries it (RFC 6750 §2.1), so a client secret goes in the body instead; a
    /// DPoP-bound token gets its scheme and proof from ``sendWithProof(_:accessToken:_:)``.
    func makeRequest(
        _ endpoint: URL, _ parameters: [(String, String)], metadata: ProviderMetadata,
        bearerToken: String? = nil
    ) async throws(SesameError) -> URLRequest {
        var request = URLRequest(url: endpoint)
        request.httpMethod = "POST"
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        var body = parameters
        var method = authenticationMethod(metadata)
        if let bearerToken {
            request.setValue("Bearer \(bearerToken)", forHTTPHeaderField: "Authorization")
            if method == .clientSecretBasic { method = .clientSecretPost }
        }
        switch method {
        case .clientSecretBasic:
            // RFC 6749 §2.3.1: form-encode id and secret, then Basic.
            let credentials = FormURLEncoding.escape(configuration.clientID) + ":"
                + FormURLEncoding.escape(configuration.clientSecret ?? "")
            request.setValue(
                "Basic " + Data(credentials.utf8).base64EncodedString(), forHTTPHeaderField: "Authorization")
        case .clientSecretPost:
            body.append((OAuthParameter.clientID, configuration.clientID))
            body.append((OAuthParameter.clientSecret, configuration.clientSecret ?? ""))
        case .privateKeyJWT:
            // RFC 7523 §2.2; OIDC Core §9: the audience is the token endpoint URL.
            guard let assertionSigner else {
                throw .invalidConfiguration("private_key_jwt needs the client's key store")
            }
            let assertion = try await assertionSigner.assertion(
                audience: metadata.tokenEndpoint.absoluteString, now: clockOffset.serverNow(clock))
            body.append((OAuthParameter.clientID, configuration.clientID))
            body.append(("client_assertion_type", ClientAssertionSigner.assertionType))
            body.append(("client_assertion", assertion))
        case .none:
            body.append((OAuthParameter.clientID, configuration.clientID))
        case .tlsClientAuth, .selfSignedTLSClientAuth:
            // RFC 8705 §2: the TLS client certificate authenticates; the app's transport
            // presents it, the body names the client.
            body.append((OAuthParameter.clientID, configuration.clientID))
        }
        request.httpBody = Data(FormURLEncoding.encode(body).utf8)
        return request
    }

    /// Sends the request `make` builds, with a DPoP proof of `key` when there is one: at the
    /// token endpoint, and with `accessToken` at a resource (then `Authorization: DPoP` and the
    /// token's `ath`, RFC 9449 §7.1). When the server asks for its nonce (§8, §9:
    /// `use_dpop_nonce` and a `DPoP-Nonce` header) the request is built and sent once more with a
    /// proof carrying it. `make` runs again for the retry, so a client assertion is never sent
    /// twice.
    func sendWithProof(
        _ key: (any DPoPKey)?, accessToken: String? = nil, _ make: () async throws(SesameError) -> URLRequest
    ) async throws(SesameError) -> (Data, HTTPURLResponse) {
        guard let key else { return try await http.send(try await make()) }
        let (data, response) = try await sendSigned(try await make(), key: key, accessToken: accessToken)
        guard dpop.learn(from: response), DPoPProofSigner.asksForNonce(response, body: data) else { return (data, response) }
        logger.debug("the server asked for a DPoP nonce; signing the proof again with it")
        let retried = try await sendSigned(try await make(), key: key, accessToken: accessToken)
        dpop.learn(from: retried.1)
        return retried
    }

    private func sendSigned(_ request: URLRequest, key: any DPoPKey, accessToken: String?)
        async throws(SesameError) -> (Data, HTTPURLResponse)
    {
        var request = request
        if let accessToken { request.setValue("\(DPoP.scheme) \(accessToken)", forHTTPHeaderField: "Authorization") }
        request.setValue(
            try dpop.proof(for: request, key: key, accessToken: accessToken, now: clockOffset.serverNow(clock)),
            forHTTPHeaderField: DPoP.proofHeader)
        return try await http.send(request)
    }

    private func authenticationMethod(_ metadata: ProviderMetadata) -> ClientAuthenticationMethod {
        if configuration.tokenEndpointAuthMethod == .privateKeyJWT { return .privateKeyJWT }
        guard let secret = configuration.clientSecret, !secret.isEmpty else { return .none }
        let supported = metadata.tokenEndpointAuthMethodsSupported ?? ["client_secret_basic"]
        if supported.contains("client_secret_basic") { return .clientSecretBasic }
        return supported.contains("client_secret_post") ? .clientSecretPost : .clientSecretBasic
    }
}

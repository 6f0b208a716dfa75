import Foundation
import Logging
import SesameProtocol

extension SesameClient {
    /// Browser sign-in: authorization code with PKCE S256, fresh `state` and `nonce`, RFC 9207
    /// `iss` check, code exchange and full ID token validation. The account is
    /// stored, made current, and announced with ``SesameEvent/signedIn(_:)``.
    public func signIn(with agent: any BrowserAgent, options: SignInOptions = .init())
        async throws(SesameError) -> Account
    {
        try await analytics.signIn("browser") { () async throws(SesameError) -> Account in
            try await browserSignIn(with: agent, options: options)
        }
    }

    private func browserSignIn(with agent: any BrowserAgent, options: SignInOptions) async throws(SesameError) -> Account {
        let metadata = try await metadata()
        let scopes = ssoScopes(options.scopes ?? configuration.scopes, metadata: metadata)
        guard scopes.contains("openid") else {
            throw .invalidConfiguration("the sign-in scopes must include \"openid\"")
        }
        guard let redirectURI = configuration.redirectURI else {
            throw .invalidConfiguration(
                "browser sign-in needs the redirect URI registered for the client; set redirect_uri (e.g. http://127.0.0.1/callback for a desktop app, com.example.app:/callback on iOS)")
        }
        let dpopKey = try dpopKeyForSignIn(metadata)
        let session = try await agent.start(redirectURI: redirectURI, ephemeral: options.ephemeral)
        let redirect: URL
        let request: AuthorizationRequest
        do {
            request = try AuthorizationRequest(
                metadata: metadata, clientID: configuration.clientID, redirectURI: session.redirectURI,
                scopes: scopes, options: options, dpopJKT: dpopKey?.thumbprint, resources: configuration.apis)
            let url = try await authorizationURL(for: request, metadata: metadata, dpopKey: dpopKey)
            pending.register(state: request.state, redirectURI: session.redirectURI, session: session)
            logger.info("sign-in started", metadata: ["issuer": "\(metadata.issuer)"])
            redirect = try await session.authorize(url)
            pending.remove(state: request.state)
            await session.cancel()
        } catch {
            await session.cancel()
            logger.info("sign-in did not complete", metadata: ["error": "\(error)"])
            throw error
        }
        // RFC 6749 §4.1.2 + RFC 9207: bind the response to this request.
        let response = try AuthorizationResponse(
            url: redirect, request: request,
            issRequired: metadata.authorizationResponseIssParameterSupported == true)
        let tokens = try await tokenEndpoint.exchange(
            code: response.code, verifier: request.pkce.verifier, redirectURI: session.redirectURI,
            metadata: metadata, deviceSecret: scopes.contains(NativeSSO.scope) ? await deviceSecretForSignIn() : nil,
            dpopKey: dpopKey)
        // RFC 9700 §4.5.3.2: disregard all tokens until the nonce check passed.
        return try await establishSession(
            tokens,
            expected: expectations(
                metadata: metadata, nonce: request.nonce, maxAge: options.maxAge,
                acrValues: options.acrValues, claims: options.claims, accessToken: tokens.accessToken),
            metadata: metadata, username: nil, dpopKey: dpopKey)
    }

    /// The URL the browser opens: `request.url`, or after a push (RFC 9126) the authorization
    /// endpoint with `client_id` and the `request_uri` only
    /// (``SesameConfiguration/pushedAuthorization``).
    func authorizationURL(for request: AuthorizationRequest, metadata: ProviderMetadata, dpopKey: (any DPoPKey)? = nil)
        async throws(SesameError) -> URL
    {
        let push: Bool
        switch configuration.pushedAuthorization {
        case .never: push = false
        case .whenRequired: push = metadata.requirePushedAuthorizationRequests == true
        case .always: push = true
        }
        guard push else { return request.url }
        guard let endpoint = metadata.pushedAuthorizationRequestEndpoint else {
            throw .invalidConfiguration(
                "pushed_authorization is set but the provider advertises no pushed_authorization_request_endpoint; set it to when_required or never")
        }
        let pushed = try await tokenEndpoint.push(request.parameters, endpoint: endpoint, metadata: metadata, dpopKey: dpopKey)
        return try request.pushedURL(metadata, requestURI: pushed.requestURI)
    }

    /// Token response of a code exchange → validated session, stored, made current and
    /// announced with ``SesameEvent/signedIn(_:)``. Shared by browser and native sign-in.
    ///
    /// - Parameter username: the login name the user typed (native sign-in), remembered for
    ///   re-authentication; else the ID token's `preferred_username` or `email`.
    /// - Parameter dpopKey: the key the token request's proof was signed with (RFC 9449 §5).
    func establishSession(
        _ tokens: TokenResponse, expected: IDTokenExpectations, metadata: ProviderMetadata,
        username: String?, dpopKey: (any DPoPKey)? = nil
    ) async throws(SesameError) -> Account {
        var stored = try await validatedSession(
            tokens, expected: expected, metadata: metadata, username: username, dpopKey: dpopKey)
        if stored.account.email == nil, stored.account.displayName == nil,
            let label = await profileLabel(
                accessToken: tokens.accessToken, subject: stored.account.subject, scope: tokens.scope, metadata: metadata,
                key: stored.dpopKey == nil ? nil : dpopKey)
        {
            stored.account.displayName = label.name
            stored.account.email = label.email
        }
        try await registry.signIn(stored)
        await share(tokens, session: stored, fetchLabel: true)
        logger.info("signed in", metadata: ["account": "\(stored.account.id)"])
        broadcaster.publish(.signedIn(stored.account))
        return stored.account
    }

    /// A sign-in whose tokens come from one token request of a capability (a token exchange of
    /// another provider's ID token, a sibling app's SSO exchange): the provider's metadata and
    /// the DPoP key for the new session are passed to `request`, then the ID token is checked
    /// and the session stored as by ``establishSession(_:expected:metadata:username:dpopKey:)``.
    func signIn(
        tokenRequest request: @Sendable (ProviderMetadata, (any DPoPKey)?) async throws(SesameError) -> TokenResponse
    ) async throws(SesameError) -> Account {
        let metadata = try await metadata()
        let dpopKey = try dpopKeyForSignIn(metadata)
        let tokens = try await request(metadata, dpopKey)
        return try await establishSession(
            tokens,
            expected: expectations(metadata: metadata, nonce: nil, maxAge: nil, acrValues: nil, accessToken: tokens.accessToken),
            metadata: metadata, username: nil, dpopKey: dpopKey)
    }

    /// Validates the ID token of a token response (OIDC Core §3.1.3.7) and builds the session
    /// to store, without storing it.
    func validatedSession(
        _ tokens: TokenResponse, expected: IDTokenExpectations, metadata: ProviderMetadata,
        username: String?, dpopKey: (any DPoPKey)? = nil
    ) async throws(SesameError) -> StoredSession {
        guard let idToken = tokens.idToken else {
            throw .protocolViolation("the token response has no id_token although the openid scope was requested")
        }
        let claims = try await validateIDToken(idToken, expected: expected, metadata: metadata)
        let now = clock.now()
        let account = Account(
            issuer: claims.iss, subject: claims.sub,
            displayName: claims.name ?? claims.preferredUsername, email: claims.email, lastUsedAt: now)
        return StoredSession(
            account: account, accessToken: tokens.accessToken,
            accessTokenExpiresAt: tokens.expiresIn.map { now.addingTimeInterval(TimeInterval($0)) },
            refreshToken: tokens.refreshToken, idToken: idToken, idTokenClaims: claims, scope: tokens.scope,
            username: username ?? claims.preferredUsername ?? claims.email, tokenType: tokens.tokenType,
            dpopKey: tokens.tokenType.lowercased() == "dpop" ? dpopKey?.material : nil)
    }

    /// Hands a redirect received by the app (custom scheme, universal link) to the pending
    /// sign-in of an ``ExternalBrowserAgent``. Returns `false`, and changes nothing, for URLs
    /// that belong to no pending request: apps may route every deep link through here.
    public func handleRedirect(url: URL) async -> Bool {
        pending.deliver(url)
    }
}

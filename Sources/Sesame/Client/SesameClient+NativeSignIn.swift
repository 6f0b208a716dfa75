import Foundation
import Logging
import SesameProtocol

extension SesameClient {
    /// Native first-party sign-in with username (or email) and password, without a browser
    /// (docs/first-party-and-accounts.md), through the authorization challenge endpoint of OAuth 2.0 for First-Party
    /// Applications — never the password grant (RFC 9700 §2.4).
    ///
    /// PKCE S256 with a fresh verifier; the code is redeemed at the token endpoint and the ID
    /// token fully validated as in browser sign-in, except the `nonce` (this flow sends none).
    ///
    /// - Returns: ``NativeLoginResult/signedIn(_:)`` (stored, current, ``SesameEvent/signedIn(_:)``
    ///   published) or ``NativeLoginResult/mfaRequired(_:)`` to continue with a second factor.
    /// - Throws: ``SesameError/Code-swift.struct/authenticationFailed`` (`invalid_grant`, `error_code`
    ///   2000) for a wrong username or password; ``SesameError`` with `unauthorized_client`
    ///   (`error_code` 1003) when the client is not registered as first-party on the provider;
    ///   ``SesameError/Code-swift.struct/invalidConfiguration`` when the provider does not advertise
    ///   `authorization_challenge_endpoint`.
    public func login(username: String, password: String, options: NativeLoginOptions = .init())
        async throws(SesameError) -> NativeLoginResult
    {
        // Succeeded only once signed in: with a second factor, MFAChallenge.verify reports it.
        analytics.record(.signInStarted, ["method": "password"])
        do {
            let result = try await passwordLogin(username: username, password: password, options: options)
            if case .signedIn = result { analytics.record(.signInSucceeded, ["method": "password"]) }
            return result
        } catch {
            analytics.failed(error, method: "password")
            throw error
        }
    }

    private func passwordLogin(username: String, password: String, options: NativeLoginOptions)
        async throws(SesameError) -> NativeLoginResult
    {
        let start = try await nativeStart(options)
        let (metadata, challenges, pkce, extra) = (start.metadata, start.challenges, start.pkce, start.extra)
        var parameters = start.parameters
        parameters.append((AuthorizationChallengeParameter.username, username))
        parameters.append((AuthorizationChallengeParameter.password, password))
        if let acrValues = options.acrValues, !acrValues.isEmpty {
            parameters.append((AuthorizationChallengeParameter.acrValues, acrValues.joined(separator: " ")))
        }
        logger.info("native sign-in started", metadata: ["issuer": "\(metadata.issuer)"])
        switch try await challenges.send(parameters + extra) {
        case .authorizationCode(let code):
            return .signedIn(
                try await finishNativeLogin(
                    code: code, verifier: pkce.verifier, metadata: metadata, username: username,
                    options: options))
        case .insufficientAuthorization(let continuation):
            let exchange = ChallengeExchange(
                challenges: challenges, pkce: pkce, continuation: continuation, extraParameters: extra)
            logger.info("native sign-in needs a second factor", metadata: ["methods": "\(exchange.methods.map(\.rawValue))"])
            return .mfaRequired(
                MFAChallenge(
                    client: self, exchange: exchange,
                    purpose: .signIn(username: username, options: options)))
        }
    }

    /// Step-up (docs/first-party-and-accounts.md): asks for a higher authentication level for the account's session,
    /// e.g. before a payment. Sends the current access token as Bearer; the provider answers with
    /// the MFA continuation. ``MFAChallenge/verify(code:)`` then replaces the account's tokens
    /// by ones carrying `acr` (checked in the ID token) and returns the account.
    ///
    /// - Parameters:
    ///   - acr: the authentication context class to reach (default: password + second factor).
    ///   - account: the account to step up; the current one by default.
    package func stepUp(acr: String = AuthenticationContextClass.multiFactor, account: Account.ID? = nil)
        async throws(SesameError) -> MFAChallenge
    {
        let (session, generation) = try await registry.session(for: account)
        let metadata = try await metadata()
        let challenges = try challengeClient(metadata)
        let token = try await validAccessToken(for: session.account.id)
        let pkce = PKCE()
        // With single sign-on the stepped-up tokens stay in the device session (device_sso).
        var parameters = Self.startParameters(scopes: ssoScopes(configuration.scopes, metadata: metadata), pkce: pkce)
        parameters.append((AuthorizationChallengeParameter.acrValues, acr))
        logger.info("step-up started", metadata: ["account": "\(session.account.id)", "acr": "\(acr)"])
        analytics.record(.stepUp, ["acr": acr])
        switch try await challenges.send(parameters, bearerToken: token, dpopKey: try dpopKey(of: session)) {
        case .authorizationCode:
            throw .protocolViolation(
                "the provider issued a code for step-up without asking for a second factor")
        case .insufficientAuthorization(let continuation):
            let exchange = ChallengeExchange(
                challenges: challenges, pkce: pkce, continuation: continuation, extraParameters: [])
            return MFAChallenge(
                client: self, exchange: exchange,
                purpose: .stepUp(account: session.account.id, generation: generation, acr: acr))
        }
    }

    /// Re-authentication before a sensitive action (docs/first-party-and-accounts.md): the signed-in user proves again
    /// who they are with their password (`max_age=0`). The result is a short-lived access token
    /// without a refresh token, **not** stored as the session; or an MFA continuation first.
    /// The ID token's `sub` must be the account's and its `auth_time` fresh.
    ///
    /// The login name is the one the user signed in with natively, else the ID token's or
    /// userinfo's `preferred_username` or `email`.
    package func reauthenticate(password: String, account: Account.ID? = nil)
        async throws(SesameError) -> ReauthenticationResult
    {
        let (session, _) = try await registry.session(for: account)
        let username = try await loginName(of: session)
        let metadata = try await metadata()
        let challenges = try challengeClient(metadata)
        let pkce = PKCE()
        var parameters = Self.startParameters(scopes: configuration.scopes, pkce: pkce)
        parameters.append((AuthorizationChallengeParameter.username, username))
        parameters.append((AuthorizationChallengeParameter.password, password))
        parameters.append((AuthorizationChallengeParameter.maxAge, "0"))
        logger.info("re-authentication started", metadata: ["account": "\(session.account.id)"])
        switch try await challenges.send(parameters) {
        case .authorizationCode(let code):
            return .reauthenticated(
                try await finishReauthentication(
                    code: code, verifier: pkce.verifier, metadata: metadata, account: session.account))
        case .insufficientAuthorization(let continuation):
            let exchange = ChallengeExchange(
                challenges: challenges, pkce: pkce, continuation: continuation, extraParameters: [])
            return .mfaRequired(ReauthenticationChallenge(client: self, exchange: exchange, account: session.account))
        }
    }

    // MARK: Completing an exchange

    /// Native sign-in's code → validated, stored session (shared with browser sign-in).
    func finishNativeLogin(
        code: String, verifier: String, metadata: ProviderMetadata, username: String?,
        options: NativeLoginOptions
    ) async throws(SesameError) -> Account {
        let dpopKey = try dpopKeyForSignIn(metadata)
        let tokens = try await tokenEndpoint.exchange(
            code: code, verifier: verifier, redirectURI: nil, metadata: metadata,
            deviceSecret: ssoShare != nil && metadata.nativeSSOSupported == true ? await deviceSecretForSignIn() : nil,
            dpopKey: dpopKey)
        // No nonce in this flow (draft-ietf-oauth-first-party-apps): every other rule applies.
        return try await establishSession(
            tokens,
            expected: expectations(
                metadata: metadata, nonce: nil, maxAge: nil, acrValues: options.acrValues,
                accessToken: tokens.accessToken),
            metadata: metadata, username: username, dpopKey: dpopKey)
    }

    /// Step-up's code → the account's tokens replaced by ones with the requested `acr`.
    func finishStepUp(
        code: String, verifier: String, metadata: ProviderMetadata, account id: Account.ID,
        generation: UInt64, acr: String
    ) async throws(SesameError) -> Account {
        // The stepped-up tokens stay bound to the account's DPoP key (RFC 9449 §5).
        let dpopKey = try (try? await registry.session(for: id)).flatMap { (session, _) throws(SesameError) in
            try self.dpopKey(of: session)
        }
        let tokens = try await tokenEndpoint.exchange(
            code: code, verifier: verifier, redirectURI: nil, metadata: metadata,
            deviceSecret: await ssoShare?.entry(for: id)?.deviceSecret, dpopKey: dpopKey)
        var stepped = try await validatedSession(
            tokens,
            expected: expectations(
                metadata: metadata, nonce: nil, maxAge: nil, acrValues: [acr], accessToken: tokens.accessToken),
            metadata: metadata, username: nil, dpopKey: dpopKey)
        guard stepped.account.id == id else {
            throw .invalidIDToken(.subject, detail: "the step-up tokens are for another user than the account")
        }
        guard let (current, currentGeneration) = try? await registry.session(for: id),
            currentGeneration == generation
        else { throw .noSession }
        var account = current.account
        account.displayName = stepped.account.displayName ?? account.displayName
        account.email = stepped.account.email ?? account.email
        stepped.account = account
        stepped.username = current.username ?? stepped.username
        if stepped.refreshToken == nil { stepped.refreshToken = current.refreshToken }
        guard try await registry.replace(id, generation: generation, with: stepped) else {
            throw .noSession
        }
        await share(tokens, session: stepped)
        logger.info("stepped up", metadata: ["account": "\(id)", "acr": "\(acr)"])
        broadcaster.publish(.refreshed(account))
        return account
    }

    /// Re-authentication's code → a short-lived grant for the same user; nothing is stored.
    func finishReauthentication(
        code: String, verifier: String, metadata: ProviderMetadata, account: Account
    ) async throws(SesameError) -> ReauthenticationGrant {
        let tokens = try await tokenEndpoint.exchange(
            code: code, verifier: verifier, redirectURI: nil, metadata: metadata)
        guard let idToken = tokens.idToken else {
            throw .protocolViolation("the token response has no id_token although the openid scope was requested")
        }
        // max_age=0: auth_time must be now (within the leeway), OIDC Core §3.1.3.7 step 13.
        let claims = try await validateIDToken(
            idToken,
            expected: expectations(
                metadata: metadata, nonce: nil, maxAge: 0, acrValues: nil, accessToken: tokens.accessToken),
            metadata: metadata)
        guard claims.iss == account.issuer, claims.sub == account.subject else {
            throw .invalidIDToken(.subject, detail: "re-authentication was completed by another user than the account")
        }
        if tokens.refreshToken != nil {
            logger.warning("the re-authentication response carried a refresh token; it is not kept")
        }
        logger.info("re-authenticated", metadata: ["account": "\(account.id)"])
        return ReauthenticationGrant(
            accessToken: tokens.accessToken,
            expiresAt: tokens.expiresIn.map { clock.now().addingTimeInterval(TimeInterval($0)) },
            idTokenClaims: claims, account: account)
    }

    // MARK: Helpers

    /// What every new native sign-in starts with: discovery, the challenge endpoint, a fresh
    /// PKCE pair, `scope` (with `openid`, and `device_sso` when the app shares sign-ins) and the
    /// PKCE challenge, and the `ui_locales` every request of the exchange carries.
    struct NativeStart: Sendable {
        let metadata: ProviderMetadata
        let challenges: AuthorizationChallengeClient
        let pkce: PKCE
        var parameters: [(String, String)]
        let extra: [(String, String)]
    }

    func nativeStart(_ options: NativeLoginOptions) async throws(SesameError) -> NativeStart {
        let metadata = try await metadata()
        let challenges = try challengeClient(metadata)
        let scopes = ssoScopes(options.scopes ?? configuration.scopes, metadata: metadata)
        guard scopes.contains("openid") else {
            throw .invalidConfiguration("the sign-in scopes must include \"openid\"")
        }
        let pkce = PKCE()
        return NativeStart(
            metadata: metadata, challenges: challenges, pkce: pkce,
            parameters: Self.startParameters(scopes: scopes, pkce: pkce), extra: Self.localeParameters(options.uiLocales))
    }

    func challengeClient(_ metadata: ProviderMetadata) throws(SesameError) -> AuthorizationChallengeClient {
        try AuthorizationChallengeClient(metadata: metadata, tokenEndpoint: tokenEndpoint, logger: logger)
    }

    /// `scope` and the PKCE S256 challenge (RFC 7636 §4.3) of a new exchange.
    static func startParameters(scopes: [String], pkce: PKCE) -> [(String, String)] {
        [
            (AuthorizationChallengeParameter.scope, ScopeList.format(scopes)),
            (AuthorizationChallengeParameter.codeChallenge, pkce.challenge),
            (AuthorizationChallengeParameter.codeChallengeMethod, PKCE.method),
        ]
    }

    static func localeParameters(_ locales: [String]?) -> [(String, String)] {
        guard let locales, !locales.isEmpty else { return [] }
        return [(AuthorizationChallengeParameter.uiLocales, locales.joined(separator: " "))]
    }

    /// The name the user signs in with, for re-authentication.
    private func loginName(of session: StoredSession) async throws(SesameError) -> String {
        if let name = session.username ?? session.idTokenClaims?.preferredUsername
            ?? session.idTokenClaims?.email, !name.isEmpty
        {
            return name
        }
        let claims = try await userInfo(for: session.account.id)
        guard let name = claims.preferredUsername ?? claims.email, !name.isEmpty else {
            throw .invalidConfiguration(
                "the session does not know the user's login name: request the profile or email scope, or sign in with login(username:password:) first")
        }
        return name
    }
}

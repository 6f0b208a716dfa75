import Foundation
import Logging
import SesameProtocol

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension SesameClient {
    /// Sends `request` with the account's access token (RFC 6750 §2.1; never in the URL): as
    /// `Authorization: Bearer`, or for tokens bound to the account's DPoP key as
    /// `Authorization: DPoP` with a fresh proof (RFC 9449 §7.1), signed again with the server's
    /// nonce when it asks for one (§9). On a 401 it refreshes once and retries once. The token
    /// only goes to the issuer's origin, configured ``SesameConfiguration/allowedOrigins`` and
    /// ``SesameConfiguration/apis``; any other origin throws
    /// ``SesameError/Code-swift.struct/invalidConfiguration`` without sending anything. A request
    /// under one of ``SesameConfiguration/apis`` carries a token for that API alone
    /// (``accessToken(forAPI:account:forceRefresh:)``, RFC 8707).
    public func data(for request: URLRequest, account: Account.ID? = nil)
        async throws(SesameError) -> (Data, HTTPURLResponse)
    {
        try originPolicy.check(request.url)
        let (session, _) = try await registry.session(for: account)
        let key = try dpopKey(of: session)
        if let api = api(for: request.url) {
            return try await data(for: request, api: api, session: session, key: key)
        }
        let token = try await validAccessToken(for: session.account.id)
        let (data, response) = try await send(request, token: token, key: key)
        guard response.statusCode == 401 else { return (data, response) }
        if let challenge = StepUpChallenge(response) {
            // RFC 9470 §3: a fresh token would not help; the user must authenticate again.
            broadcaster.publish(.stepUpRequired(session.account, challenge.apiError))
            return (data, response)
        }
        logger.debug("HTTP 401; refreshing once and retrying", metadata: ["host": "\(request.url?.host ?? "")"])
        let fresh = try await refresh(session.account.id, rejectedToken: token)
        return try await send(request, token: fresh, key: key)
    }

    /// ``data(for:account:)`` for a request under `api`: its own token; on a 401 one fresh token
    /// for it and one retry.
    private func data(for request: URLRequest, api: URL, session: StoredSession, key: (any DPoPKey)?)
        async throws(SesameError) -> (Data, HTTPURLResponse)
    {
        let id = session.account.id
        let token = try await accessToken(forAPI: api, account: id)
        let (data, response) = try await send(request, token: token, key: key)
        guard response.statusCode == 401 else { return (data, response) }
        if let challenge = StepUpChallenge(response) {
            broadcaster.publish(.stepUpRequired(session.account, challenge.apiError))
            return (data, response)
        }
        apiTokens.discard(token, account: id, api: api)
        let fresh = try await accessToken(forAPI: api, account: id, forceRefresh: true)
        return try await send(request, token: fresh, key: key)
    }

    /// `request` with `token`: as a bearer token, or with the session's DPoP `key` as
    /// `Authorization: DPoP` and a proof, sent again once when the server asks for its nonce
    /// (RFC 9449 §9). The key stays the account's through refreshes.
    func send(_ request: URLRequest, token: String, key: (any DPoPKey)?)
        async throws(SesameError) -> (Data, HTTPURLResponse)
    {
        guard let key else {
            var request = request
            request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
            return try await http.send(request)
        }
        return try await tokenEndpoint.sendWithProof(key, accessToken: token) { () throws(SesameError) in request }
    }

    /// The UserInfo claims (OIDC Core §5.3) of the account; their `sub` must equal the ID
    /// token's (§5.3.2), else ``IDTokenRule/userInfoSubject``.
    public func userInfo(for account: Account.ID? = nil) async throws(SesameError) -> StandardClaims {
        let metadata = try await metadata()
        guard let endpoint = metadata.userinfoEndpoint else {
            throw .invalidConfiguration("the provider advertises no userinfo_endpoint")
        }
        let (session, _) = try await registry.session(for: account)
        var request = URLRequest(url: endpoint)
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        let (data, response) = try await dataAllowingIssuer(request, session: session)
        let claims = try ProviderHTTP.decode(StandardClaims.self, data: data, response: response, what: "userinfo")
        guard claims.sub == session.account.subject else {
            throw .invalidIDToken(.userInfoSubject, detail: "userinfo sub does not match the ID token sub")
        }
        return claims
    }

    /// The name and email the UserInfo endpoint gives a token just issued (OIDC Core §5.3), for
    /// an account whose ID token carries neither (Sesame's carries only what `claims` asks
    /// for): one request at sign-in, never at refresh. `nil` when the endpoint is missing, the
    /// scopes release neither claim, or the request fails (the sign-in goes on without them).
    func profileLabel(
        accessToken: String, subject: String, scope: String?, metadata: ProviderMetadata, key: (any DPoPKey)?
    ) async -> (name: String?, email: String?)? {
        let scopes = Set(ScopeList.parse(scope ?? ScopeList.format(configuration.scopes)))
        guard let endpoint = metadata.userinfoEndpoint, !scopes.isDisjoint(with: ["profile", "email"]) else { return nil }
        var request = URLRequest(url: endpoint)
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        guard let (data, response) = try? await send(request, token: accessToken, key: key),
            let claims = try? ProviderHTTP.decode(StandardClaims.self, data: data, response: response, what: "userinfo"),
            claims.sub == subject  // §5.3.2
        else { return nil }
        return (claims.name ?? claims.preferredUsername, claims.email)
    }

    /// Authenticated request to a provider endpoint (its origin may differ from the issuer's).
    private func dataAllowingIssuer(_ request: URLRequest, session: StoredSession)
        async throws(SesameError) -> (Data, HTTPURLResponse)
    {
        let key = try dpopKey(of: session)
        let token = try await validAccessToken(for: session.account.id)
        let (data, response) = try await send(request, token: token, key: key)
        guard response.statusCode == 401 else { return (data, response) }
        let fresh = try await refresh(session.account.id, rejectedToken: token)
        return try await send(request, token: fresh, key: key)
    }
}

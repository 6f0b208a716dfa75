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
    /// only goes to the issuer's origin and configured ``SesameConfiguration/allowedOrigins``;
    /// any other origin throws ``SesameError/Code-swift.struct/invalidConfiguration`` without
    /// sending anything.
    public func data(for request: URLRequest, account: Account.ID? = nil)
        async throws(SesameError) -> (Data, HTTPURLResponse)
    {
        try originPolicy.check(request.url)
        let (session, _) = try await registry.session(for: account)
        let token = try await validAccessToken(for: session.account.id)
        let (data, response) = try await send(request, account: session.account.id, token: token)
        guard response.statusCode == 401 else { return (data, response) }
        if let challenge = StepUpChallenge(response) {
            // RFC 9470 §3: a fresh token would not help; the user must authenticate again.
            broadcaster.publish(.stepUpRequired(session.account, challenge.apiError))
            return (data, response)
        }
        logger.debug("HTTP 401; refreshing once and retrying", metadata: ["host": "\(request.url?.host ?? "")"])
        let fresh = try await refresh(session.account.id, rejectedToken: token)
        return try await send(request, account: session.account.id, token: fresh)
    }

    /// `request` with `token` as the account's session presents it, sent; with a DPoP-bound
    /// session sent again once when the server asks for its nonce (RFC 9449 §9).
    private func send(_ request: URLRequest, account: Account.ID, token: String)
        async throws(SesameError) -> (Data, HTTPURLResponse)
    {
        let (session, _) = try await registry.session(for: account)
        guard let key = try dpopKey(of: session) else {
            var request = request
            request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
            return try await http.send(request)
        }
        let signer = tokenEndpoint.dpop
        var attempt = 0
        while true {
            var bound = request
            bound.setValue("\(DPoP.scheme) \(token)", forHTTPHeaderField: "Authorization")
            bound.setValue(
                try signer.proof(for: bound, key: key, accessToken: token, now: clockOffset.serverNow(clock)),
                forHTTPHeaderField: DPoP.proofHeader)
            let (data, response) = try await http.send(bound)
            let fresh = signer.learn(from: response)
            attempt += 1
            guard attempt == 1, fresh, DPoPProofSigner.asksForNonce(response, body: data) else { return (data, response) }
        }
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
        let (data, response) = try await dataAllowingIssuer(request, account: session.account.id)
        let claims = try ProviderHTTP.decode(StandardClaims.self, data: data, response: response, what: "userinfo")
        guard claims.sub == session.account.subject else {
            throw .invalidIDToken(.userInfoSubject, detail: "userinfo sub does not match the ID token sub")
        }
        return claims
    }

    /// Authenticated request to a provider endpoint (its origin may differ from the issuer's).
    private func dataAllowingIssuer(_ request: URLRequest, account: Account.ID)
        async throws(SesameError) -> (Data, HTTPURLResponse)
    {
        let token = try await validAccessToken(for: account)
        let (data, response) = try await send(request, account: account, token: token)
        guard response.statusCode == 401 else { return (data, response) }
        let fresh = try await refresh(account, rejectedToken: token)
        return try await send(request, account: account, token: fresh)
    }
}

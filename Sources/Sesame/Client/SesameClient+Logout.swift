import Foundation
import Logging
import SesameProtocol

extension SesameClient {
    /// Logs out: the session is always forgotten locally first; with `revoke`, the
    /// refresh and access tokens are then revoked at the RFC 7009 endpoint. Revocation
    /// failures do not throw: ``LogoutResult/revoked`` says whether the server confirmed.
    /// Call ``endSessionURL(for:postLogoutRedirectURI:state:)`` *before* this to also end the
    /// browser session.
    public func logout(_ account: Account.ID? = nil, revoke: Bool = true) async throws(SesameError)
        -> LogoutResult
    {
        let (session, _) = try await registry.session(for: account)
        await registry.remove(session.account.id)
        logger.info("signed out", metadata: ["account": "\(session.account.id)"])
        broadcaster.publish(.signedOut(session.account, reason: .userInitiated))
        var result = LogoutResult(account: session.account, revoked: false)
        guard revoke else { return result }
        do throws(SesameError) {
            let metadata = try await metadata()
            if let refreshToken = session.refreshToken {
                try await tokenEndpoint.revoke(token: refreshToken, hint: .refreshToken, metadata: metadata)
            }
            try await tokenEndpoint.revoke(token: session.accessToken, hint: .accessToken, metadata: metadata)
            result.revoked = true
        } catch {
            logger.warning("token revocation failed; local logout done", metadata: ["error": "\(error)"])
            result.revocationError = error
        }
        return result
    }

    /// The OpenID Connect RP-Initiated Logout 1.0 §2 URL (with `id_token_hint`, `client_id`,
    /// `post_logout_redirect_uri`, `state`) to open in the browser, or `nil` when the provider
    /// has no `end_session_endpoint`.
    public func endSessionURL(for account: Account.ID? = nil, postLogoutRedirectURI: URL?, state: String?)
        async throws(SesameError) -> URL?
    {
        let (session, _) = try await registry.session(for: account)
        let metadata = try await metadata()
        guard let endpoint = metadata.endSessionEndpoint,
            var components = URLComponents(url: endpoint, resolvingAgainstBaseURL: false)
        else { return nil }
        var parameters: [(String, String)] = [(OAuthParameter.clientID, configuration.clientID)]
        if let idToken = session.idToken { parameters.insert((OAuthParameter.idTokenHint, idToken), at: 0) }
        if let postLogoutRedirectURI {
            parameters.append((OAuthParameter.postLogoutRedirectURI, postLogoutRedirectURI.absoluteString))
        }
        if let state { parameters.append((OAuthParameter.state, state)) }
        let existing = components.percentEncodedQuery.map { $0 + "&" } ?? ""
        components.percentEncodedQuery = existing + FormURLEncoding.encode(parameters)
        return components.url
    }
}

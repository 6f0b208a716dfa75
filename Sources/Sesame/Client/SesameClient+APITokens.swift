import Foundation
import Logging
import SesameProtocol

extension SesameClient {
    // MARK: Tokens per API (RFC 8707)

    /// The configured API (``SesameConfiguration/apis``) `url` belongs to: the longest whose
    /// identifier is a prefix of `url` on a path-segment boundary, with the same scheme, host
    /// and port; `nil` when none is.
    nonisolated func api(for url: URL?) -> URL? {
        guard let url, let target = URLComponents(url: url, resolvingAgainstBaseURL: true) else { return nil }
        var best: (api: URL, length: Int)?
        for api in configuration.apis {
            guard let prefix = URLComponents(url: api, resolvingAgainstBaseURL: true),
                prefix.scheme?.lowercased() == target.scheme?.lowercased(), prefix.host?.lowercased() == target.host?.lowercased(),
                prefix.port == target.port
            else { continue }
            let base = prefix.path.hasSuffix("/") ? String(prefix.path.dropLast()) : prefix.path
            guard target.path == base || target.path.hasPrefix(base + "/") || base.isEmpty else { continue }
            if base.count >= (best?.length ?? -1) { best = (api, base.count) }
        }
        return best?.api
    }

    /// An access token for `api` alone (its identifier in `aud`, only its scopes), for the account
    /// (the current one by default): cached per API, renewed ``SesameConfiguration/refreshAhead``
    /// seconds before expiry with a refresh that names the API (RFC 8707 §2.2). The API must be
    /// one sign-in asked for (``SesameConfiguration/apis``); the server refuses others with
    /// `invalid_target`.
    ///
    /// - Throws: as ``validAccessToken(for:forceRefresh:)``.
    public nonisolated func accessToken(forAPI api: URL, account: Account.ID? = nil, forceRefresh: Bool = false)
        async throws(SesameError) -> String
    {
        let (session, generation) = try await registry.session(for: account)
        let id = session.account.id
        if !forceRefresh,
            let token = apiTokens.fresh(
                account: id, generation: generation, api: api, at: clock.now(), margin: configuration.refreshAhead)
        {
            return token
        }
        let outcome = await refreshes.refresh(id, purpose: api.absoluteString) { [self] in
            await self.performAPIRefresh(id, api: api, forceRefresh: forceRefresh)
        }
        return try outcome.get()
    }

    /// One refresh for `api`: spends the session's refresh token and keeps the rotated one; the
    /// access token goes to the API cache, never over the session's own.
    private func performAPIRefresh(_ id: Account.ID, api: URL, forceRefresh: Bool) async -> RefreshCoordinator.Outcome {
        do throws(SesameError) {
            let (session, generation) = try await registry.session(for: id)
            // A refresh that finished while this caller waited made a fresh token already.
            if !forceRefresh,
                let token = apiTokens.fresh(
                    account: id, generation: generation, api: api, at: clock.now(), margin: configuration.refreshAhead)
            {
                return .success(token)
            }
            guard let refreshToken = session.refreshToken else {
                throw .authenticationFailed(
                    APIError(error: "invalid_grant", errorDescription: "the session has no refresh token; sign in again"),
                    status: 400)
            }
            let metadata = try await metadata()
            let tokens = try await refreshTokens(
                refreshToken, metadata: metadata, session: session, generation: generation, resource: api)
            let now = clock.now()
            guard
                try await registry.applyRefresh(
                    id, generation: generation,
                    update: { session in if let rotated = tokens.refreshToken { session.refreshToken = rotated } }) != nil
            else {
                throw .noSession
            }
            apiTokens.store(
                APITokenCache.Token(
                    value: tokens.accessToken, expiresAt: tokens.expiresIn.map { now.addingTimeInterval(TimeInterval($0)) },
                    generation: generation),
                account: id, api: api)
            logger.debug("refreshed an API's token", metadata: ["account": "\(id)", "api": "\(api.absoluteString)"])
            return .success(tokens.accessToken)
        } catch {
            return .failure(error)
        }
    }
}

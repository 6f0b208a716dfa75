import Foundation
import Logging
import SesameProtocol

extension SesameClient {
    /// A valid access token for the account (the current one by default), refreshed
    /// `refreshAhead` seconds before expiry. However many tasks ask at once, one refresh runs
    /// per account; the rotated refresh token is persisted before any caller gets the new
    /// access token.
    ///
    /// - Throws: ``SesameError/Code-swift.struct/noSession``; ``SesameError/Code-swift.struct/authenticationFailed`` when
    ///   the refresh token was rejected (the session then ends with
    ///   ``SignOutReason/refreshTokenRejected``); a technical error after retries (the session
    ///   is kept).
    public nonisolated func validAccessToken(for account: Account.ID? = nil, forceRefresh: Bool = false)
        async throws(SesameError) -> String
    {
        let access: SessionRegistry.AccessSnapshot
        if let cached = registry.cachedAccess(for: account) {
            access = cached
        } else {
            access = SessionRegistry.AccessSnapshot(try await registry.session(for: account).0)
        }
        if registry.useIsAfterIdle(access.accountID, now: clock.now(), timeout: configuration.pinSessionIdleTimeout) {
            try await lockIdleSession(access.accountID)
        }
        if !forceRefresh, access.isFresh(at: clock.now(), margin: configuration.refreshAhead) {
            return access.accessToken
        }
        let rejected = forceRefresh ? access.accessToken : nil
        return try await refresh(access.accountID, rejectedToken: rejected)
    }

    /// Forgets a PIN-unlocked session that was idle too long and says so
    /// (``SignOutReason/locked``); always throws ``SesameError/Code-swift.struct/noSession``.
    private func lockIdleSession(_ id: Account.ID) async throws(SesameError) -> Never {
        if let removed = await registry.remove(id) {
            logger.info("locked an idle PIN session", metadata: ["account": "\(id)"])
            broadcaster.publish(.signedOut(removed.account, reason: .locked))
        }
        throw .noSession
    }

    /// Joins or starts the single refresh for `id`; returns the new access token.
    nonisolated func refresh(_ id: Account.ID, rejectedToken: String?) async throws(SesameError) -> String {
        if let running = refreshes.running(id) { return try await running.value.get() }
        let outcome = await refreshes.refresh(id) { [self] in
            await self.performRefresh(id, rejectedToken: rejectedToken)
        }
        return try outcome.get()
    }

    /// One refresh (RFC 6749 §6). Runs inside the single-flight task.
    private func performRefresh(_ id: Account.ID, rejectedToken: String?) async -> RefreshCoordinator.Outcome {
        do throws(SesameError) {
            let (session, generation) = try await registry.session(for: id)
            // Another refresh may have finished while this caller was on its way.
            let stillValid = session.accessTokenIsFresh(at: clock.now(), margin: configuration.refreshAhead)
            if let rejectedToken {
                if session.accessToken != rejectedToken { return .success(session.accessToken) }
            } else if stillValid {
                return .success(session.accessToken)
            }
            guard let refreshToken = session.refreshToken else {
                throw .authenticationFailed(
                    APIError(error: "invalid_grant", errorDescription: "the session has no refresh token; sign in again"),
                    status: 400)
            }
            let metadata = try await metadata()
            let tokens = try await refreshTokens(refreshToken, metadata: metadata, session: session, generation: generation)
            var claims: IDTokenClaims?
            if let idToken = tokens.idToken {
                // OIDC Core §12.2: same iss and sub; no nonce check on refresh.
                let validated = try await validateIDToken(
                    idToken,
                    expected: expectations(
                        metadata: metadata, nonce: nil, maxAge: nil, acrValues: nil,
                        accessToken: tokens.accessToken),
                    metadata: metadata)
                guard validated.sub == session.account.subject else {
                    throw .invalidIDToken(.subject, detail: "the refreshed ID token is for another subject")
                }
                claims = validated
            }
            let now = clock.now()
            let newClaims = claims
            guard
                let updated = try await registry.applyRefresh(
                    id, generation: generation, update: { $0.apply(tokens, claims: newClaims, now: now) })
            else {
                logger.info("discarded a refresh that finished after the session ended", metadata: ["account": "\(id)"])
                throw .noSession
            }
            await share(tokens, session: updated)
            logger.debug("refreshed tokens", metadata: ["account": "\(id)"])
            broadcaster.publish(.refreshed(updated.account))
            return .success(updated.accessToken)
        } catch {
            return .failure(error)
        }
    }

    /// Calls the token endpoint with retries; `invalid_grant` ends the session. With `resource`,
    /// the access token is for that API alone (RFC 8707 §2.2).
    func refreshTokens(
        _ refreshToken: String, metadata: ProviderMetadata, session: StoredSession, generation: UInt64, resource: URL? = nil
    ) async throws(SesameError) -> TokenResponse {
        let deviceSecret =
            ScopeList.parse(session.scope ?? "").contains(NativeSSO.scope) ? await deviceSecret(for: session.account) : nil
        // RFC 9449 §5: the refresh carries a proof of the account's key, and the new tokens
        // are bound to it again.
        let key = session.dpopKey == nil ? nil : try dpopKey(of: session)
        do {
            return try await retryPolicy.run { () async throws(SesameError) -> TokenResponse in
                try await tokenEndpoint.refresh(
                    refreshToken: refreshToken, metadata: metadata, deviceSecret: deviceSecret, dpopKey: key, resource: resource)
            }
        } catch {
            if case .authenticationFailed(let apiError, _) = error.reason, apiError.error == "invalid_grant" {
                if let (current, currentGeneration) = try? await registry.session(for: session.account.id),
                    currentGeneration == generation
                {
                    await registry.remove(current.account.id)
                    // Native SSO: a sibling app signed out everywhere; the shared entry is dead too.
                    let elsewhere = apiError.code == .sessionEndedElsewhere
                    if elsewhere { await forgetShared(current.account) }
                    logger.info("refresh token rejected; session ended", metadata: ["account": "\(current.account.id)"])
                    broadcaster.publish(.signedOut(current.account, reason: elsewhere ? .revokedElsewhere : .refreshTokenRejected))
                }
            } else {
                logger.warning("refresh failed; session kept", metadata: ["error": "\(error)"])
            }
            throw error
        }
    }
}

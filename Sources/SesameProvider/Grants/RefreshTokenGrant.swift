import Foundation
import SesameProtocol
import SesameStore

/// RFC 6749 §6 refresh. Every use rotates the token (RFC 9700 §4.14.2); presenting an already
/// rotated token revokes the whole family and fails with `invalid_grant`, and a token of a
/// family ended for another reason is refused with that reason (``SpentRefreshToken``). The requested scope
/// may narrow, never widen; the new refresh token keeps the original scope (RFC 6749 §6). So do
/// the APIs (RFC 8707 §2.2): `resource` may name any of the grant's, which the new refresh token
/// keeps all of; a name outside them is `invalid_target` and the presented token stays current.
/// The response includes a new ID token with the original `auth_time` and `sid`
/// (OIDC Core §12.2), and the user claims the grant's `claims` parameter asked for (§5.5),
/// read fresh from the store.
///
/// Hot path: one client read (cached, for authentication), one statement that rotates (it
/// writes the successor), two signatures; a user read only when `claims` asked the ID token
/// for user claims.
///
/// A token of a Native SSO device session is refused once the session ended or expired (draft 07
/// §4.3); with `device_sso` the response carries the device secret (§3.3), rotated when the app
/// did not present the current one (§3.4.3), and the ID token its `ds_hash`.
package struct RefreshTokenGrant: Sendable {
    package let store: any IdentityStore
    package let tokenIssuer: TokenIssuer
    package let metrics: any ProviderMetrics
    /// Where reuse and leaks are recorded (`refresh.reuse_detected`).
    package var audit = AuditLog.off
    /// Native SSO device sessions.
    package let deviceSessions: DeviceSessions
    package let now: @Sendable () -> Date

    package init(
        store: any IdentityStore,
        tokenIssuer: TokenIssuer,
        metrics: any ProviderMetrics,
        audit: AuditLog = .off,
        deviceSessions: DeviceSessions,
        now: @escaping @Sendable () -> Date
    ) {
        self.store = store
        self.tokenIssuer = tokenIssuer
        self.metrics = metrics
        self.audit = audit
        self.deviceSessions = deviceSessions
        self.now = now
    }

    /// What the rightful client reads after another client presented its refresh token.
    package static let leaked = ProviderFailure(
        .invalidGrant,
        "This session was revoked because its refresh token was presented by another client, so the token has leaked; sign the user in again.")

    /// What every app of a device session reads after "sign out everywhere".
    package static let endedElsewhere = ProviderFailure(
        .sessionEndedElsewhere,
        "The session was ended for every app on this device (sign out everywhere); forget the account and sign in again.")

    package func exchange(
        _ request: RefreshTokenRequest, client: ClientRecord, origin: RequestOrigin? = nil, confirmation: TokenConfirmation? = nil
    ) async throws -> TokenResponse {
        guard let presented = request.refreshToken, !presented.isEmpty, presented.utf8.count <= 256 else {
            throw ProviderFailure(.invalidRequest, "refresh_token is required.")
        }
        if client.securityProfile == .fapi2 {
            return try await exchangeWithoutRotation(request, presented: presented, client: client, origin: origin, confirmation: confirmation)
        }
        let now = self.now()
        let refresh = TokenIssuer.newRefreshToken()
        let successor = RefreshTokenSuccessor(
            tokenDigest: refresh.digest, issuedAt: now,
            expiresAt: now.addingTimeInterval(TimeInterval(client.refreshTokenLifetime)))
        let record: RefreshTokenRecord
        switch try await store.rotateRefreshToken(digest: SecretDigest.of(presented), into: successor) {
        case .notFound:
            throw ProviderFailure(.invalidGrant, "The refresh token is unknown, expired or revoked.")
        case .replayed(let spent):
            try await SpentRefreshToken(store: store, metrics: metrics, audit: audit, now: now)
                .refuse(spent, client: client, origin: origin)
        case .redeemed(let redeemed):
            record = redeemed
        }
        guard ConstantTime.equals(record.clientID, client.clientID) else {
            // The token leaked: the session is revoked for its rightful client too, which is
            // told why on its next refresh (``leaked``).
            try await store.revokeRefreshFamily(record.familyID, now: now, reason: .presentedByAnotherClient)
            audit.record(
                .refreshReuseDetected, reason: "presented_by_another_client", origin: origin, clientID: client.clientID,
                userID: record.authentication.userID, detail: ["family_revoked": "true", "owner_client_id": record.clientID])
            throw ProviderFailure(.invalidGrant, "The refresh token was issued to another client.")
        }
        if let bound = record.dpopJKT {
            // RFC 9449 §5: a public client's refresh token is bound to its DPoP key.
            guard let jkt = confirmation?.jkt, ConstantTime.equals(bound, jkt) else {
                try await store.withdrawRefreshToken(successorDigest: refresh.digest)
                throw DPoPFailure.invalidProof(
                    "This refresh token is bound to a DPoP key; send a DPoP proof signed with that key.")
                    .providerFailure
            }
        }
        let granted = ScopeList.parse(record.scope)
        var scopes = granted
        if let requested = request.scope {
            scopes = ScopeList.parse(requested)
            if scopes.isEmpty || scopes.contains(where: { !granted.contains($0) }) {
                // Bad input loses nothing: the presented token stays current.
                try await store.withdrawRefreshToken(successorDigest: refresh.digest)
                throw ProviderFailure(.invalidScope, "The scope may only narrow the original grant.")
            }
        }
        let audience: TokenAudience
        do {
            audience = try await ResourceAuthorization(store: store).audience(
                requested: request.resources, authorized: record.resources, client: client)
        } catch {
            try await store.withdrawRefreshToken(successorDigest: refresh.digest)
            throw error
        }
        let (scope, aud) = Self.accessScope(scopes, audience: audience, issuer: tokenIssuer.issuer)
        let device = try await continueDeviceSession(record, scopes: scopes, deviceSecret: request.deviceSecret, successor: refresh.digest)

        let issuer = tokenIssuer
        let claims = record.claims.map(RequestedClaims.init(stored:))
        let access = try await issuer.accessToken(
            client: client, subject: record.authentication.userID, scope: scope,
            authentication: record.authentication, sessionID: record.sessionID,
            familyID: record.familyID, claims: claims, confirmation: confirmation, audience: aud)
        var idToken: String?
        if scopes.contains("openid") {
            idToken = try await issuer.idToken(
                client: client, authentication: record.authentication, nonce: nil,
                sessionID: record.sessionID, accessToken: access.token, claims: claims,
                userClaims: try await ClaimRelease.idTokenClaims(
                    for: claims, userID: record.authentication.userID, store: store),
                deviceSecretHash: device.map { DeviceSecret.hash($0.secret) })
        }
        return TokenResponse(
            accessToken: access.token, tokenType: TokenIssuer.tokenType(confirmation),
            expiresIn: client.accessTokenLifetime, refreshToken: refresh.token, idToken: idToken, scope: scope, deviceSecret: device?.secret)
    }

    /// FAPI 2.0 §5.3.2.1 item 9: a FAPI client's refresh token is not rotated (the client
    /// authenticates with its key and the tokens are DPoP-bound, so a leaked refresh token is
    /// useless alone); the response carries no new one and the client keeps its token.
    private func exchangeWithoutRotation(
        _ request: RefreshTokenRequest, presented: String, client: ClientRecord, origin: RequestOrigin?, confirmation: TokenConfirmation?
    ) async throws -> TokenResponse {
        let now = self.now()
        guard let record = try await store.refreshToken(digest: SecretDigest.of(presented)), record.rotatedAt == nil,
            record.revokedAt == nil, record.expiresAt > now, try await !store.isRefreshFamilyRevoked(record.familyID)
        else {
            throw ProviderFailure(.invalidGrant, "The refresh token is unknown, expired or revoked.")
        }
        guard ConstantTime.equals(record.clientID, client.clientID) else {
            try await store.revokeRefreshFamily(record.familyID, now: now, reason: .presentedByAnotherClient)
            audit.record(
                .refreshReuseDetected, reason: "presented_by_another_client", origin: origin, clientID: client.clientID,
                userID: record.authentication.userID, detail: ["family_revoked": "true", "owner_client_id": record.clientID])
            throw ProviderFailure(.invalidGrant, "The refresh token was issued to another client.")
        }
        let granted = ScopeList.parse(record.scope)
        var scopes = granted
        if let requested = request.scope {
            scopes = ScopeList.parse(requested)
            if scopes.isEmpty || scopes.contains(where: { !granted.contains($0) }) {
                throw ProviderFailure(.invalidScope, "The scope may only narrow the original grant.")
            }
        }
        let audience = try await ResourceAuthorization(store: store).audience(
            requested: request.resources, authorized: record.resources, client: client)
        let (scope, aud) = Self.accessScope(scopes, audience: audience, issuer: tokenIssuer.issuer)
        let claims = record.claims.map(RequestedClaims.init(stored:))
        let access = try await tokenIssuer.accessToken(
            client: client, subject: record.authentication.userID, scope: scope, authentication: record.authentication,
            sessionID: record.sessionID, familyID: record.familyID, claims: claims, confirmation: confirmation,
            audience: aud)
        var idToken: String?
        if scopes.contains("openid") {
            idToken = try await tokenIssuer.idToken(
                client: client, authentication: record.authentication, nonce: nil, sessionID: record.sessionID,
                accessToken: access.token, claims: claims,
                userClaims: try await ClaimRelease.idTokenClaims(for: claims, userID: record.authentication.userID, store: store))
        }
        return TokenResponse(
            accessToken: access.token, tokenType: TokenIssuer.tokenType(confirmation),
            expiresIn: client.accessTokenLifetime, refreshToken: nil, idToken: idToken, scope: scope)
    }

    /// The access token's scope and `aud` for the `scopes` asked for (RFC 8707 §2.2: the APIs of
    /// the grant, or the ones named among them; ``TokenAudience``).
    private static func accessScope(_ scopes: [String], audience: TokenAudience, issuer: String) -> (String, [String]) {
        let restricted = audience.restrict(scopes, issuer: issuer)
        return (ScopeList.format(restricted.scopes), restricted.audience)
    }

    /// For a family of a device session: refuses when the session ended (its families are
    /// revoked already; an expired one is revoked now) and, with `device_sso` and `openid`,
    /// gives the device secret to return (§3.3, §3.4.3).
    private func continueDeviceSession(
        _ record: RefreshTokenRecord, scopes: [String], deviceSecret: String?, successor: String
    ) async throws -> DeviceSessions.Issue? {
        guard let sessionID = record.sessionID, DeviceSessionRecord.isDeviceSessionID(sessionID)
        else { return nil }
        let session: DeviceSessionRecord
        switch try await deviceSessions.standing(sessionID) {
        case .live(let live):
            session = live
        case .ended:
            try await store.withdrawRefreshToken(successorDigest: successor)
            try await store.revokeRefreshFamily(record.familyID, now: now(), reason: .signedOutEverywhere)
            throw Self.endedElsewhere
        case .expired:
            try await store.withdrawRefreshToken(successorDigest: successor)
            try await store.revokeRefreshFamily(record.familyID, now: now(), reason: .signedOut)
            throw ProviderFailure(
                .invalidGrant, "The single sign-on device session reached its maximum lifetime; sign the user in again.")
        }
        guard scopes.contains(NativeSSO.scope), scopes.contains("openid") else { return nil }
        return try await deviceSessions.continueAtRefresh(session, presented: deviceSecret)
    }
}

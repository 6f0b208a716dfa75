import Foundation
import SesameProtocol
import SesameStore

/// The token set a grant answers with, once it has established who signed in (RFC 6749 §5.1,
/// OIDC Core §3.1.3.3): an access token, a refresh token stored by its digest (the first of a
/// new family) when asked for, and an ID token when `openid` was granted. Shared by the
/// authorization code, PIN unlock and token exchange grants.
///
/// With `confirmation` the access token is bound to a DPoP key (RFC 9449 §5, `token_type` `DPoP`)
/// or a client certificate (RFC 8705 §3), and
/// so is the refresh token of a public client; a confidential client's refresh token is bound to
/// its client authentication already (§5).
///
/// The access token is for the APIs of ``ResourceAuthorization`` (RFC 8707): `resources` the
/// request named, within `authorized` (what an earlier step authorized, `nil` for none); the
/// refresh token keeps what was authorized, so a refresh may ask for any of it (§2.2).
///
/// In a Native SSO device session, `deviceSecretHash` is the `ds_hash` of the session's secret
/// (§3.4.1; ``DeviceSecret``) for the ID token, and `sid` is the device session.
package struct GrantTokens: Sendable {
    package let store: any IdentityStore
    package let tokenIssuer: TokenIssuer
    /// Revokes the user's least recently used families past ``SessionLimits`` when a new one opens.
    package let sessionCap: SessionCap

    /// Issues the set for `authentication` in the refresh family `familyID`. `claims` is the
    /// grant's OIDC Core §5.5 request (its stored form travels with the refresh token).
    package func issue(
        client: ClientRecord, authentication: AuthenticationContext, scope: String, sessionID: String?,
        familyID: String, nonce: String?, claims stored: ClaimsRequest?, withRefreshToken: Bool, now: Date,
        deviceSecretHash: String? = nil, origin: RequestOrigin? = nil, confirmation: TokenConfirmation?,
        resources: [String] = [], authorized: [String]? = nil, resourceAuthorization: ResourceAuthorization? = nil
    ) async throws -> TokenResponse {
        let claims = stored.map(RequestedClaims.init(stored:))
        let audience = try await (resourceAuthorization ?? ResourceAuthorization(store: store)).audience(
            requested: resources, authorized: authorized, client: client)
        let granted = audience.restrict(ScopeList.parse(scope), issuer: tokenIssuer.issuer)
        let accessScope = audience.apis.isEmpty ? scope : ScopeList.format(granted.scopes)
        let access = try await tokenIssuer.accessToken(
            client: client, subject: authentication.userID, scope: accessScope,
            authentication: authentication, sessionID: sessionID, familyID: familyID, claims: claims,
            confirmation: confirmation, audience: granted.audience)
        var refreshToken: String?
        if withRefreshToken {
            let refresh = TokenIssuer.newRefreshToken()
            var record = RefreshTokenRecord(
                tokenDigest: refresh.digest, familyID: familyID, clientID: client.clientID, scope: scope,
                authentication: authentication, sessionID: sessionID, issuedAt: now,
                expiresAt: now.addingTimeInterval(TimeInterval(client.refreshTokenLifetime)), claims: stored,
                dpopJKT: client.isConfidential ? nil : confirmation?.jkt)
            record.resources = authorized ?? audience.identifiers
            try await store.insertRefreshToken(record)
            refreshToken = refresh.token
            try await sessionCap.enforce(
                userID: authentication.userID, clientID: client.clientID, newFamily: familyID, origin: origin, now: now)
        }
        // After the family is stored: an administrator who disables the account revokes every
        // family after marking it disabled, so a family stored before that is revoked by it, and
        // one stored after it is refused here (issue #47).
        let user = try await store.user(id: authentication.userID)
        guard let user, !user.isDisabled else {
            if withRefreshToken {
                try await store.revokeRefreshFamily(familyID, now: now, reason: .administrator)
            }
            throw user == nil
                ? ProviderFailure(.invalidGrant, "The user this grant was for no longer exists.")
                : ProviderFailure.accountDisabled
        }
        var idToken: String?
        if ScopeList.parse(scope).contains("openid") {
            idToken = try await tokenIssuer.idToken(
                client: client, authentication: authentication, nonce: nonce, sessionID: sessionID,
                accessToken: access.token, claims: claims,
                userClaims: try await ClaimRelease.idTokenClaims(for: claims, userID: authentication.userID, store: store),
                deviceSecretHash: deviceSecretHash)
        }
        return TokenResponse(
            accessToken: access.token, tokenType: TokenIssuer.tokenType(confirmation), expiresIn: client.accessTokenLifetime,
            refreshToken: refreshToken, idToken: idToken, scope: accessScope)
    }
}

import Foundation
import SesameProtocol

/// RFC 6749 §4.1.3 authorization code exchange, with RFC 7636 §4.6 PKCE verification.
///
/// Codes are single use: the store decides first use atomically. A second redemption revokes
/// the refresh-token family the first one produced (and with it that family's access tokens)
/// and fails with `invalid_grant` (RFC 6749 §4.1.2, RFC 9700 §4.2.4).
///
/// A refresh token is issued whenever the client is registered for the `refresh_token` grant
/// (native first-party apps need one even without `offline_access`). An ID token is issued
/// when `openid` was requested.
///
/// Codes from `/authorize-challenge` (draft-ietf-oauth-first-party-apps §5.2.1) have no
/// redirect URI, and the token request sends none. A re-authentication code (`max_age=0`)
/// gives an access token of at most 5 minutes and no refresh token.
struct AuthorizationCodeGrant: Sendable {
    let services: ServerServices

    func exchange(_ form: [String: String], client: ClientRecord) async throws -> TokenResponse {
        guard let code = form["code"], !code.isEmpty, code.utf8.count <= 256 else {
            throw EndpointFailure(.invalidRequest, "code is required.")
        }
        let redirectURI = form["redirect_uri"] ?? ""
        let digest = SecretDigest.of(code)
        let store = services.store
        let now = services.now()
        let record: AuthorizationCodeRecord
        switch try await store.redeemAuthorizationCode(digest: digest, now: now) {
        case .notFound:
            throw EndpointFailure(.invalidGrant, "The code is unknown or expired.")
        case .replayed(let replayed):
            if let family = replayed.familyID { try await store.revokeRefreshFamily(family, now: now) }
            throw EndpointFailure(
                .invalidGrant, "The code was already used; tokens issued from it have been revoked.")
        case .redeemed(let redeemed):
            record = redeemed
        }
        guard ConstantTime.equals(record.clientID, client.clientID) else {
            throw EndpointFailure(.invalidGrant, "The code was issued to another client.")
        }
        if record.redirectURI == FirstPartyCode.noRedirectURI {
            guard redirectURI.isEmpty else {
                throw EndpointFailure(
                    .invalidGrant, "This code came from /authorize-challenge; send no redirect_uri.")
            }
        } else {
            guard !redirectURI.isEmpty else {
                throw EndpointFailure(.invalidRequest, "redirect_uri is required (RFC 6749 §4.1.3).")
            }
            guard record.redirectURI == redirectURI else {
                throw EndpointFailure(.invalidGrant, "redirect_uri differs from the authorization request.")
            }
        }
        guard let verifier = form["code_verifier"], !verifier.isEmpty else {
            throw EndpointFailure(.invalidGrant, "code_verifier is required (PKCE S256).")
        }
        guard PKCE.verify(verifier: verifier, challenge: record.codeChallenge) else {
            throw EndpointFailure(.invalidGrant, "code_verifier does not match the code_challenge.")
        }

        var client = client
        var reauthentication = false
        if record.redirectURI == FirstPartyCode.noRedirectURI {
            reauthentication = try await services.mfaStore.isReauthenticationCode(digest: digest)
        }
        if reauthentication {
            client.accessTokenLifetime = min(
                client.accessTokenLifetime, FirstPartyCode.reauthenticationAccessTokenLifetime)
        }
        let familyID = UUID().uuidString.lowercased()
        try await store.setAuthorizationCodeFamily(digest: digest, familyID: familyID)
        let issuer = services.tokenIssuer
        let access = try await issuer.accessToken(
            client: client, subject: record.authentication.userID, scope: record.scope,
            authentication: record.authentication, sessionID: record.sessionID, familyID: familyID)
        var refreshToken: String?
        if client.grantTypes.contains(.refreshToken), !reauthentication {
            let refresh = TokenIssuer.newRefreshToken()
            try await store.insertRefreshToken(
                RefreshTokenRecord(
                    tokenDigest: refresh.digest, familyID: familyID, clientID: client.clientID,
                    scope: record.scope, authentication: record.authentication,
                    sessionID: record.sessionID, issuedAt: now,
                    expiresAt: now.addingTimeInterval(TimeInterval(client.refreshTokenLifetime))))
            refreshToken = refresh.token
        }
        var idToken: String?
        if ScopeList.parse(record.scope).contains("openid") {
            idToken = try await issuer.idToken(
                client: client, authentication: record.authentication, nonce: record.nonce,
                sessionID: record.sessionID, accessToken: access.token)
        }
        return TokenResponse(
            accessToken: access.token, tokenType: "Bearer", expiresIn: client.accessTokenLifetime,
            refreshToken: refreshToken, idToken: idToken, scope: record.scope)
    }
}

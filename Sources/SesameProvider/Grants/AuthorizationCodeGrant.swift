import Foundation
import SesameProtocol
import SesameStore

/// RFC 6749 §4.1.3 authorization code exchange, with RFC 7636 §4.6 PKCE verification.
///
/// Codes are single use: the store decides first use atomically. A second redemption by the
/// client the code was issued to revokes the refresh-token family the first one produced (and
/// with it that family's access tokens) and fails with `invalid_grant` (RFC 6749 §4.1.2,
/// RFC 9700 §4.2.4), also after the code's lifetime. Another client replaying it gets a plain
/// `invalid_grant`: it cannot revoke someone else's tokens.
///
/// PKCE (RFC 9700 §2.1.1, §4.8.2): a code issued with a `code_challenge` needs the matching
/// `code_verifier`. A code issued without one (a confidential client relying on `nonce`) is
/// refused when the request carries a `code_verifier` anyway, since that is the signature of a
/// PKCE downgrade attack; without a verifier it is redeemed by the authenticated confidential
/// client.
///
/// A refresh token is issued whenever the client is registered for the `refresh_token` grant
/// (native first-party apps need one even without `offline_access`). An ID token is issued
/// when `openid` was requested.
///
/// Codes from `/authorize-challenge` (draft-ietf-oauth-first-party-apps §5.2.1) have no
/// redirect URI, and the token request sends none. A re-authentication code (`max_age=0`)
/// gives an access token of at most 5 minutes and no refresh token.
///
/// With the `device_sso` scope (and `openid`) granted to a client of an app group, the tokens are
/// issued in a Native SSO device session and the response carries its `device_secret`
/// (draft 07 §3.4.2, ``DeviceSessions``).
package struct AuthorizationCodeGrant: Sendable {
    package let store: any IdentityStore
    /// Whether a code came from a re-authentication (first-party step-up).
    package let mfaStore: any MFAStore
    package let tokenIssuer: TokenIssuer
    /// The cap on each user's live sessions, applied when tokens open a new family.
    package var sessionCap: SessionCap
    /// Native SSO device sessions.
    package let deviceSessions: DeviceSessions
    /// Where a replayed code is recorded (`code.replayed`).
    package var audit = AuditLog.off
    package let now: @Sendable () -> Date

    package init(
        store: any IdentityStore,
        mfaStore: any MFAStore,
        tokenIssuer: TokenIssuer,
        sessionCap: SessionCap,
        deviceSessions: DeviceSessions,
        audit: AuditLog = .off,
        now: @escaping @Sendable () -> Date
    ) {
        self.store = store
        self.mfaStore = mfaStore
        self.tokenIssuer = tokenIssuer
        self.sessionCap = sessionCap
        self.deviceSessions = deviceSessions
        self.audit = audit
        self.now = now
    }

    package func exchange(
        _ request: AuthorizationCodeRequest, client: ClientRecord, origin: RequestOrigin? = nil, confirmation: TokenConfirmation? = nil
    ) async throws -> TokenResponse {
        guard let code = request.code, !code.isEmpty, code.utf8.count <= 256 else {
            throw ProviderFailure(.invalidRequest, "code is required.")
        }
        let redirectURI = request.redirectURI ?? ""
        let resourceAuthorization = ResourceAuthorization(store: store)
        if !request.resources.isEmpty {
            // RFC 8707: an API the client may not have refuses the request before the code is spent.
            _ = try await resourceAuthorization.audience(
                requested: request.resources, authorized: nil, client: client)
        }
        let digest = SecretDigest.of(code)
        let now = self.now()
        let record: AuthorizationCodeRecord
        switch try await store.redeemAuthorizationCode(digest: digest, now: now) {
        case .notFound:
            throw ProviderFailure(.invalidGrant, "The code is unknown or expired.")
        case .replayed(let replayed):
            guard ConstantTime.equals(replayed.clientID, client.clientID) else {
                throw ProviderFailure(.invalidGrant, "The code was issued to another client.")
            }
            if let family = replayed.familyID { try await store.revokeRefreshFamily(family, now: now, reason: .codeReplayed) }
            audit.record(
                .codeReplayed, reason: "code_replayed", origin: origin, clientID: client.clientID,
                userID: replayed.authentication.userID, detail: ["family_revoked": replayed.familyID == nil ? "false" : "true"])
            throw ProviderFailure(
                .invalidGrant, "The code was already used; tokens issued from it have been revoked.")
        case .redeemed(let redeemed):
            record = redeemed
        }
        guard ConstantTime.equals(record.clientID, client.clientID) else {
            throw ProviderFailure(.invalidGrant, "The code was issued to another client.")
        }
        if record.redirectURI == FirstPartyCode.noRedirectURI {
            guard redirectURI.isEmpty else {
                throw ProviderFailure(
                    .invalidGrant, "This code came from /authorize-challenge; send no redirect_uri.")
            }
        } else {
            guard !redirectURI.isEmpty else {
                throw ProviderFailure(.invalidRequest, "redirect_uri is required (RFC 6749 section 4.1.3).")
            }
            guard record.redirectURI == redirectURI else {
                throw ProviderFailure(.invalidGrant, "redirect_uri differs from the authorization request.")
            }
        }
        try Self.checkPKCE(verifier: request.codeVerifier, record: record, client: client)
        if let bound = record.dpopJKT {
            // RFC 9449 §10: the code is bound to the key named by dpop_jkt.
            guard let jkt = confirmation?.jkt, ConstantTime.equals(bound, jkt) else {
                throw DPoPFailure.invalidProof(
                    "This code is bound to a DPoP key (dpop_jkt); send a DPoP proof signed with that key.")
                    .providerFailure
            }
        }

        var client = client
        var reauthentication = false
        if record.redirectURI == FirstPartyCode.noRedirectURI {
            reauthentication = try await mfaStore.isReauthenticationCode(digest: digest)
        }
        if reauthentication {
            client.accessTokenLifetime = min(
                client.accessTokenLifetime, FirstPartyCode.reauthenticationAccessTokenLifetime)
        }
        let familyID = SecureRandom.uuid()
        try await store.setAuthorizationCodeFamily(digest: digest, familyID: familyID)
        var sessionID = record.sessionID
        var device: DeviceSessions.Issue?
        let scopes = ScopeList.parse(record.scope)
        if scopes.contains(NativeSSO.scope), scopes.contains("openid"), let appGroup = client.appGroup,
            !reauthentication
        {
            device = try await deviceSessions.open(
                client: client, appGroup: appGroup, authentication: record.authentication,
                browserSessionID: record.sessionID, presented: request.deviceSecret, origin: origin)
            sessionID = device?.session.id
        }
        var response = try await GrantTokens(store: store, tokenIssuer: tokenIssuer, sessionCap: sessionCap).issue(
            client: client, authentication: record.authentication, scope: record.scope, sessionID: sessionID,
            familyID: familyID, nonce: record.nonce, claims: record.claims,
            withRefreshToken: client.grantTypes.contains(.refreshToken) && !reauthentication, now: now,
            deviceSecretHash: device.map { DeviceSecret.hash($0.secret) }, origin: origin, confirmation: confirmation,
            resources: request.resources, authorized: record.resources, resourceAuthorization: resourceAuthorization)
        response.deviceSecret = device?.secret
        return response
    }

    /// RFC 7636 §4.6 and RFC 9700 §4.8.2. An empty `code_verifier` counts as absent
    /// (RFC 6749 §3.1).
    package static func checkPKCE(verifier: String?, record: AuthorizationCodeRecord, client: ClientRecord) throws {
        let verifier = verifier.flatMap { $0.isEmpty ? nil : $0 }
        guard let challenge = record.codeChallenge else {
            guard verifier == nil else {
                throw ProviderFailure(
                    .invalidGrant,
                    "code_verifier was sent but the authorization request had no code_challenge (PKCE downgrade, RFC 9700 section 4.8.2).")
            }
            // Only confidential clients may obtain codes without PKCE; a client that became
            // public since must not redeem one.
            guard client.isConfidential else {
                throw ProviderFailure(.invalidGrant, "This code has no code_challenge; public clients need PKCE S256.")
            }
            return
        }
        guard let verifier else {
            throw ProviderFailure(.invalidGrant, "code_verifier is required (PKCE S256).")
        }
        guard PKCE.verify(verifier: verifier, challenge: challenge) else {
            throw ProviderFailure(.invalidGrant, "code_verifier does not match the code_challenge.")
        }
    }
}

import Foundation
import SesameProtocol
import SesameStore

/// The Native SSO token exchange (draft 07 §4, on RFC 8693): a sibling app presents the ID token
/// another app of its vendor received (the subject) and the device secret (the actor), and gets
/// its own tokens in the same device session.
///
/// Every check of §4.3 runs before anything is issued; each failure names its rule. The error
/// codes follow RFC 8693 §2.2.2 (`invalid_request` for a subject or actor token that is invalid
/// or unacceptable), §4.3 (`invalid_grant` when the session is no longer valid) and RFC 6749
/// §5.2 (`unauthorized_client`, `invalid_scope`):
/// 1. `audience` is this issuer (§4.1; the requesting client's own id is accepted too);
///    otherwise `invalid_target`.
/// 2. The device secret is one the server issued (`invalid_request`) and its session is live
///    (`invalid_grant`).
/// 3. The ID token's signature verifies with our keys and `iss` is ours; its `exp` has not
///    passed by more than ``NativeSSOPolicy/idTokenGrace`` (§6.3 allows expired ones).
/// 4. `ds_hash` matches the device secret, and `sid` is the secret's session.
/// 5. The user still exists, and is the session's.
/// 6. The requesting client and the ID token's client belong to the session's app group
///    (§4.3 "a list of client_ids that can share user authentications").
/// 7. Scopes: `openid` is included (§4.1) and every scope is allowed for the client. No scope
///    needs consent in Sesame, so `interaction_required` (§4.4) is never the answer.
package struct NativeSSOExchange: Sendable {
    package let store: any IdentityStore
    package let sessions: DeviceSessions
    package let tokenIssuer: TokenIssuer
    /// The cap on each user's live sessions, applied when tokens open a new family.
    package var sessionCap: SessionCap
    package let keyRing: KeyRing
    package let now: @Sendable () -> Date

    package init(
        store: any IdentityStore,
        sessions: DeviceSessions,
        tokenIssuer: TokenIssuer,
        sessionCap: SessionCap,
        keyRing: KeyRing,
        now: @escaping @Sendable () -> Date
    ) {
        self.store = store
        self.sessions = sessions
        self.tokenIssuer = tokenIssuer
        self.sessionCap = sessionCap
        self.keyRing = keyRing
        self.now = now
    }

    /// Scopes a sibling app gets when its request names none.
    package static let defaultScopes = ["openid", "profile", "email", "offline_access", NativeSSO.scope]

    package func exchange(
        _ request: TokenExchangeRequest, subjectToken: String, client: ClientRecord, origin: RequestOrigin,
        confirmation: TokenConfirmation? = nil
    ) async throws -> TokenResponse {
        do {
            return try await checkedExchange(
                request, subjectToken: subjectToken, client: client, origin: origin, confirmation: confirmation)
        } catch let failure as Refusal {
            sessions.audit.record(
                .ssoRefused, reason: failure.rule, origin: origin, clientID: client.clientID, userID: failure.userID)
            throw failure.endpointFailure
        }
    }

    private func checkedExchange(
        _ request: TokenExchangeRequest, subjectToken: String, client: ClientRecord, origin: RequestOrigin,
        confirmation: TokenConfirmation?
    ) async throws -> TokenResponse {
        // 1. audience (RFC 8693 §2.1, Native SSO §4.1)
        let audience = request.audience ?? ""
        guard !audience.isEmpty else {
            throw Refusal(.invalidRequest, "audience", "audience is required: send this issuer's identifier (Native SSO 1.0 section 4.1).")
        }
        guard audience == tokenIssuer.issuer || audience == client.clientID else {
            throw Refusal(.invalidTarget, "audience", "audience must be this issuer, \(tokenIssuer.issuer).")
        }
        // RFC 8707: the client's registered APIs (checked when the tokens are issued).
        let resources: [String]
        do {
            resources = try request.resources(issuer: tokenIssuer.issuer)
        } catch {
            throw Refusal(.invalidTarget, "resource", error.description ?? "resource is malformed.")
        }
        if let requested = request.requestedTokenType, !requested.isEmpty,
            requested != TokenExchange.TokenType.accessToken
        {
            throw Refusal(.invalidRequest, "requested_token_type", "requested_token_type may only be \(TokenExchange.TokenType.accessToken).")
        }
        guard let appGroup = client.appGroup else {
            throw Refusal(.unauthorizedClient, "app_group", "This client belongs to no app group, so it may not share sign-ins; the operator sets one with `sesame client add --app-group`.")
        }
        // 2. the device secret (the actor)
        let actorType = request.actorTokenType ?? ""
        guard actorType == TokenExchange.TokenType.deviceSecret else {
            throw Refusal(.invalidRequest, "actor_token_type", "actor_token_type must be \(TokenExchange.TokenType.deviceSecret).")
        }
        let secret = request.actorToken ?? ""
        guard !secret.isEmpty, secret.utf8.count <= 256,
            let session = try await sessions.store.deviceSession(secretDigest: SecretDigest.of(secret))
        else {
            throw Refusal(.invalidRequest, "device_secret", "actor_token is not a device secret issued here (or it was rotated); sign in again.")
        }
        guard session.isLive(at: now()) else {
            throw Refusal(.invalidGrant, "session_ended", "The device session has ended (signed out or expired); sign in again.", userID: session.userID)
        }
        // 3. the ID token (the subject)
        let claims: IDTokenClaims
        do {
            claims = try await IDTokenHint.verify(subjectToken, issuer: tokenIssuer.issuer, keyRing: keyRing)
        } catch {
            throw Refusal(.invalidRequest, "id_token", "subject_token: \(error.description)", userID: session.userID)
        }
        let expiredFor = now().timeIntervalSince1970 - TimeInterval(claims.exp)
        guard expiredFor <= sessions.policy.idTokenGrace else {
            throw Refusal(.invalidRequest, "id_token_expired", "subject_token expired too long ago; the app that signed in must refresh it first, or sign in again.", userID: session.userID)
        }
        // 4. the binding
        guard let dsHash = claims.dsHash, ConstantTime.equals(dsHash, DeviceSecret.hash(secret)) else {
            throw Refusal(.invalidRequest, "ds_hash", "The ID token's ds_hash does not match the device secret.", userID: session.userID)
        }
        guard claims.sid == session.id else {
            throw Refusal(.invalidRequest, "sid", "The ID token's sid is not the device secret's session.", userID: session.userID)
        }
        // 5. the user
        guard claims.sub == session.userID, try await store.user(id: session.userID) != nil else {
            throw Refusal(.invalidGrant, "user", "The account of this session no longer exists.", userID: session.userID)
        }
        // 6. the app group
        guard appGroup == session.appGroup,
            let subjectClient = try await store.client(id: claims.aud), subjectClient.appGroup == session.appGroup
        else {
            throw Refusal(.unauthorizedClient, "app_group", "This client is not in the app group the user signed in through; it may not share that sign-in.", userID: session.userID)
        }
        // 7. the scopes
        let scope = try Self.scope(
            request.scope, client: client, allowed: try await ResourceAuthorization(store: store).allowedScopes(client))
        let tokens = try await GrantTokens(store: store, tokenIssuer: tokenIssuer, sessionCap: sessionCap).issue(
            client: client, authentication: session.authentication, scope: scope, sessionID: session.id,
            familyID: SecureRandom.uuid(), nonce: nil, claims: nil,
            withRefreshToken: client.grantTypes.contains(.refreshToken), now: now(), deviceSecretHash: DeviceSecret.hash(secret),
            origin: origin, confirmation: confirmation, resources: resources)
        sessions.audit.record(
            .ssoExchanged, origin: origin, clientID: client.clientID, userID: session.userID,
            detail: ["from_client_id": claims.aud, "app_group": appGroup])
        var response = tokens
        response.issuedTokenType = TokenExchange.TokenType.accessToken
        return response
    }

    /// §4.1: a requested scope must include `openid`; without one the client gets
    /// ``defaultScopes`` it is allowed (``ExchangeScope``).
    package static func scope(_ parameter: String?, client: ClientRecord, allowed: Set<String>? = nil) throws -> String {
        let requested = ExchangeScope.requested(parameter)
        if let requested, !requested.contains("openid") {
            throw ProviderFailure(.invalidScope, "scope must include openid (Native SSO 1.0 section 4.1).")
        }
        return try ExchangeScope.resolve(requested, defaults: defaultScopes, client: client, allowed: allowed)
    }

    /// A refused exchange: the answer and the rule, for the audit log.
    package struct Refusal: Error {
        package let endpointFailure: ProviderFailure
        package let rule: String
        package let userID: String?

        package init(_ code: APIErrorCode, _ rule: String, _ description: String, userID: String? = nil) {
            endpointFailure = ProviderFailure(code, description)
            self.rule = rule
            self.userID = userID
        }
    }
}

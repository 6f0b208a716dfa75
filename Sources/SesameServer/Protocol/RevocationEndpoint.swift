import Foundation
import Hummingbird
import SesameProtocol

/// Token revocation, `POST /revoke` (RFC 7009). Public clients identify with `client_id`,
/// confidential clients authenticate (§2.1).
///
/// - A refresh token revokes its whole family, so the access tokens of that grant become
///   inactive too (§2.1: "SHOULD also invalidate all access tokens based on the same grant").
/// - An access token (JWT) is revoked by `jti` until it would have expired.
/// - Unknown tokens get 200 and nothing happens (§2.2).
/// - A token issued to another client is refused with `unauthorized_client` (§2.1: the server
///   "verifies whether the token was issued to the client making the revocation request. If
///   this validation fails, the request is refused"), and nothing happens to it.
/// - A Native SSO device secret, with the hint `device_secret` (``NativeSSO/deviceSecretHint``),
///   ends its device session: "sign out everywhere", every token of every app of the group
///   issued in it. Only a client of the session's app group can do so.
/// - `token_type_hint` is never refused: an unknown value is ignored (§2.1 "extend its search
///   across all of its supported token types").
struct RevocationEndpoint: Sendable {
    let clientAuthenticator: ClientAuthenticator
    let accessTokenVerifier: AccessTokenVerifier
    let store: any IdentityStore
    let now: @Sendable () -> Date
    var audit = AuditLog.off
    /// Native SSO device sessions.
    let deviceSessions: DeviceSessions

    func post(_ request: Request, context: SesameRequestContext) async throws -> Response {
        let form = try await FormRequest.body(of: request, context: context)
        let client = try await clientAuthenticator.authenticate(request, form: form, context: context)
        context.annotations.record(clientID: client.clientID)
        guard let token = form[OAuthParameter.token], !token.isEmpty else {
            throw EndpointFailure(.invalidRequest, "token is required.")
        }
        // §2.1: the hint only speeds up the lookup; a hint the server does not know, or one
        // that is wrong, is ignored and every token type is searched (both are, always).
        let now = now()
        var outcome = "revoke_unknown"
        if form[OAuthParameter.tokenTypeHint] == NativeSSO.deviceSecretHint,
            try await deviceSessions.signOutEverywhere(secret: token, client: client, origin: RequestOrigin(context)) != nil
        {
            outcome = "revoked_device_session"
        } else if token.utf8.count <= 256,
            let refresh = try await store.refreshToken(digest: SecretDigest.of(token))
        {
            guard refresh.clientID == client.clientID else { throw Self.notYours(context) }
            try await store.revokeRefreshFamily(refresh.familyID, now: now, reason: .revoked)
            outcome = "revoked_refresh_family"
            audit.record(
                .tokenRevoked, context: context, clientID: client.clientID, userID: refresh.authentication.userID,
                detail: ["token_type": "refresh_token"])
        } else if let claims = await accessTokenVerifier.signedClaims(token) {
            guard claims.clientID == client.clientID else { throw Self.notYours(context) }
            try await store.revokeAccessToken(
                jti: claims.jti, expiresAt: Date(timeIntervalSince1970: TimeInterval(claims.exp)))
            outcome = "revoked_access_token"
            audit.record(
                .tokenRevoked, context: context, clientID: client.clientID, userID: claims.sub,
                detail: ["token_type": "access_token"])
        }
        context.annotations.record(outcome: outcome)
        return Response(status: .ok, headers: [.cacheControl: "no-store"])
    }

    /// RFC 7009 §2.1: the token was issued to another client.
    private static func notYours(_ context: SesameRequestContext) -> EndpointFailure {
        context.annotations.record(outcome: "refused_other_clients_token")
        return EndpointFailure(
            .unauthorizedClient,
            "This token was issued to another client; a client may revoke only its own tokens (RFC 7009 section 2.1).")
    }
}

import Foundation
import Hummingbird
import SesameProtocol

/// Token introspection, `POST /introspect` (RFC 7662). Only confidential clients (resource
/// servers) may call it (§2.1, §4: the endpoint MUST be protected). Inactive, unknown, expired
/// or revoked tokens answer `{"active": false}` only (§2.2).
///
/// Who may see what (§4 leaves it to the server, "to prevent token scanning"): a client
/// introspects the tokens issued to it and the tokens meant for it (its id in `aud`); a client
/// registered with ``ClientRecord/introspectsAnyToken`` (a resource server the operator trusts)
/// introspects any. Any other token answers `{"active": false}`, as §2.2 allows for a token the
/// caller "is not allowed to introspect".
struct IntrospectionEndpoint: Sendable {
    let clientAuthenticator: ClientAuthenticator
    let accessTokenVerifier: AccessTokenVerifier
    let store: any IdentityStore
    /// The `iss` of the answers (RFC 7662 §2.2).
    let issuer: String
    let now: @Sendable () -> Date

    func post(_ request: Request, context: SesameRequestContext) async throws -> Response {
        let form = try await FormRequest.body(of: request, context: context)
        let client = try await clientAuthenticator.authenticate(
            request, form: form, context: context, requireConfidential: true)
        context.annotations.record(clientID: client.clientID)
        guard let token = form[OAuthParameter.token], !token.isEmpty else {
            throw EndpointFailure(.invalidRequest, "token is required.")
        }
        var result = try await introspect(token, hint: form[OAuthParameter.tokenTypeHint].flatMap(TokenTypeHint.init))
        if result.active, !Self.may(client, see: result) {
            context.annotations.record(outcome: "not_allowed")
            result = .inactive
        }
        context.annotations.record(outcome: result.active ? "active" : "inactive")
        return JSONResponse.make(result)
    }

    /// Whether `client` may see the active token `result` describes.
    static func may(_ client: ClientRecord, see result: IntrospectionResponse) -> Bool {
        client.introspectsAnyToken || result.clientID == client.clientID
            || (result.aud ?? []).contains(client.clientID)
    }

    /// RFC 7662 §2.2 / RFC 8705 §3.2: the token's `cnf` as introspection reports it.
    static func confirmation(_ cnf: TokenConfirmation) -> IntrospectionResponse.Confirmation {
        var confirmation = IntrospectionResponse.Confirmation(jkt: cnf.jkt ?? "")
        confirmation.jkt = cnf.jkt
        confirmation.certificateThumbprint = cnf.certificateThumbprint
        return confirmation
    }

    private func introspect(_ token: String, hint: TokenTypeHint?) async throws -> IntrospectionResponse {
        if hint == .refreshToken, let response = try await refreshToken(token) { return response }
        if let claims = try await accessTokenVerifier.issuedClaims(token) {
            return IntrospectionResponse(
                active: true, scope: claims.scope, clientID: claims.clientID,
                tokenType: TokenIssuer.tokenType(claims.cnf), exp: claims.exp, iat: claims.iat,
                sub: claims.sub, aud: claims.aud.value, iss: claims.iss, jti: claims.jti, acr: claims.acr, amr: claims.amr,
                cnf: claims.cnf.map(Self.confirmation))
        }
        if hint != .refreshToken, let response = try await refreshToken(token) { return response }
        return .inactive
    }

    private func refreshToken(_ token: String) async throws -> IntrospectionResponse? {
        guard token.utf8.count <= 256,
            let record = try await store.refreshToken(digest: SecretDigest.of(token))
        else { return nil }
        let now = now()
        guard record.rotatedAt == nil, record.revokedAt == nil, record.expiresAt > now,
            try await !store.isRefreshFamilyRevoked(record.familyID)
        else { return .inactive }
        return IntrospectionResponse(
            active: true, scope: record.scope, clientID: record.clientID, tokenType: "refresh_token",
            exp: Int(record.expiresAt.timeIntervalSince1970),
            iat: Int(record.issuedAt.timeIntervalSince1970), sub: record.authentication.userID,
            iss: issuer, acr: record.authentication.acr,
            amr: record.authentication.amr)
    }
}

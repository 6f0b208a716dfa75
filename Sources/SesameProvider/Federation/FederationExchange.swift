import Foundation
import SesameProtocol
import SesameStore

/// Sign-in with a provider's ID token at `/token` (RFC 8693 token exchange, docs/federation.md):
/// `subject_token` is the provider's ID token (`subject_token_type` `…:id_token`),
/// `subject_issuer` names the registered provider (its id or its issuer), `nonce` is the one the
/// app gave the provider, if any. The token is checked (``FederatedTokenValidator``), the
/// account found or made (``FederatedAccounts``), and the client gets its tokens as from any
/// sign-in: `amr` `fed`, `auth_time` now.
package struct FederationExchange: Sendable {
    package let store: any IdentityStore
    package let federation: any FederationStore
    package let validator: FederatedTokenValidator
    package let accounts: FederatedAccounts
    /// Facebook access tokens (``FacebookTokenInspector``).
    package let facebook: FacebookTokenInspector
    /// Opens a provider's sealed app secret (Facebook).
    package var openSecret: @Sendable (FederationProviderRecord) throws -> String = { _ in throw FederationRefusal.keys("no key ring") }
    package let tokenIssuer: TokenIssuer
    /// The cap on each user's live sessions, applied when tokens open a new family.
    package var sessionCap: SessionCap
    package let now: @Sendable () -> Date

    package init(
        store: any IdentityStore,
        federation: any FederationStore,
        validator: FederatedTokenValidator,
        accounts: FederatedAccounts,
        facebook: FacebookTokenInspector,
        tokenIssuer: TokenIssuer,
        sessionCap: SessionCap,
        now: @escaping @Sendable () -> Date
    ) {
        self.store = store
        self.federation = federation
        self.validator = validator
        self.accounts = accounts
        self.facebook = facebook
        self.tokenIssuer = tokenIssuer
        self.sessionCap = sessionCap
        self.now = now
    }

    /// Scopes when the request names none.
    package static let defaultScopes = ["openid", "profile", "email", "offline_access"]

    package func exchange(
        _ request: TokenExchangeRequest, subjectToken: String, client: ClientRecord, origin: RequestOrigin,
        confirmation: TokenConfirmation? = nil
    ) async throws -> TokenResponse {
        let named = request.subjectIssuer ?? ""
        do {
            guard !named.isEmpty else {
                throw FederationRefusal.unknownProvider(
                    "subject_issuer is required: the registered provider's id or issuer")
            }
            guard let provider = try await provider(named) else {
                throw FederationRefusal.unknownProvider("no federation provider \"\(named.prefix(100))\" is registered here")
            }
            // RFC 8707: the client's registered APIs (checked when the tokens are issued).
            let resources = try request.resources(issuer: tokenIssuer.issuer)
            let claims = try await claims(subjectToken, request: request, provider: provider)
            let scope = try ExchangeScope.resolve(
                ExchangeScope.requested(request.scope), defaults: Self.defaultScopes, client: client,
                allowed: try await ResourceAuthorization(store: store).allowedScopes(client))
            let (user, outcome) = try await accounts.account(for: claims, provider: provider, origin: origin)
            // Recorded once it signs someone in (a token refused for its account, say an
            // existing account the provider may not link to, is not used up); of two at once,
            // one is refused here before any token is issued.
            if provider.kind != .facebook { try await recordUse(of: subjectToken, claims: claims, provider: provider) }
            accounts.audit.record(
                .federationSignedIn, reason: "\(outcome)", origin: origin, clientID: client.clientID, userID: user.id,
                detail: ["provider": provider.id])
            let authentication = AuthenticationContext(
                userID: user.id, authTime: now(), acr: nil, amr: [Federation.authenticationMethod])
            var tokens = try await GrantTokens(store: store, tokenIssuer: tokenIssuer, sessionCap: sessionCap).issue(
                client: client, authentication: authentication, scope: scope, sessionID: nil,
                familyID: SecureRandom.uuid(), nonce: nil, claims: nil,
                withRefreshToken: client.grantTypes.contains(.refreshToken), now: now(), origin: origin,
                confirmation: confirmation, resources: resources)
            tokens.issuedTokenType = TokenExchange.TokenType.accessToken
            return tokens
        } catch let refusal as FederationRefusal {
            accounts.audit.record(
                .federationRefused, reason: refusal.rule, origin: origin, clientID: client.clientID,
                detail: ["provider": String(named.prefix(64))])
            throw refusal.endpointFailure
        }
    }

    /// Checks the subject token as its provider's kind requires: an ID token (JWS), or for
    /// Facebook an access token at the inspection endpoint.
    private func claims(
        _ token: String, request: TokenExchangeRequest, provider: FederationProviderRecord
    ) async throws -> FederatedClaims {
        let type = request.subjectTokenType
        guard provider.kind == .facebook else {
            guard type == TokenExchange.TokenType.idToken else {
                throw FederationRefusal.invalidToken(rule: "subject_token_type", "this provider's subject_token is an ID token")
            }
            return try await validator.validate(token, provider: provider, nonce: request.nonce)
        }
        guard type == TokenExchange.TokenType.accessToken else {
            throw FederationRefusal.invalidToken(rule: "subject_token_type", "a Facebook subject_token is an access token")
        }
        let secret: String
        do {
            secret = try openSecret(provider)
        } catch {
            throw FederationRefusal.keys("the provider's app secret cannot be opened; register it again")
        }
        return try await facebook.inspect(token, provider: provider, appSecret: secret)
    }

    /// An ID token signs in once (issue #28 §5): its digest is kept until it expires, across
    /// every process sharing the store, so a copied token cannot be exchanged again.
    private func recordUse(of token: String, claims: FederatedClaims, provider: FederationProviderRecord) async throws {
        // The validator refused a token whose exp is absent or out of range (NumericDate).
        let expiry = (try? claims.exp?.get())?.date ?? now()
        let keepUntil = expiry.addingTimeInterval(FederatedTokenValidator.leeway)
        guard try await federation.recordFederatedToken(providerID: provider.id, digest: SecretDigest.of(token), expiresAt: keepUntil)
        else {
            throw FederationRefusal.invalidToken(
                rule: "replay", "this ID token was used to sign in already; ask the provider for a new one")
        }
    }

    /// The provider named by id, else by issuer.
    private func provider(_ name: String) async throws -> FederationProviderRecord? {
        if let byID = try await federation.federationProvider(id: name) { return byID }
        return try await federation.federationProviders().first { $0.issuer == name }
    }
}

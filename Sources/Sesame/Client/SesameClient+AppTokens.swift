import Foundation
import Logging
import SesameProtocol

extension SesameClient {
    // MARK: App-level tokens (before any user signs in)

    /// An access token for the app itself (RFC 6749 §4.4 client credentials), for API calls
    /// made before a user signs in. The client must be able to authenticate:
    /// `client_secret_basic` with ``SesameConfiguration/clientSecret``, or `private_key_jwt`
    /// (RFC 7523) with the key the SDK keeps in the store. Cached and renewed
    /// ``SesameConfiguration/refreshAhead`` seconds before expiry, one request in flight
    /// however many tasks ask.
    ///
    /// - Throws: ``SesameError/Code-swift.struct/invalidConfiguration`` for a public client;
    ///   ``SesameError/Code-swift.struct/authenticationFailed`` when the provider refuses the client.
    public nonisolated func appAccessToken(scopes: [String]? = nil, forceRefresh: Bool = false) async throws(SesameError)
        -> String
    {
        if !forceRefresh, let token = appTokens.fresh(at: clock.now(), margin: configuration.refreshAhead) {
            return token
        }
        if forceRefresh { appTokens.clear() }
        return try await appTokens.renew { [self] () async -> Result<AppTokenCache.Token, SesameError> in
            do throws(SesameError) {
                return .success(try await self.requestAppToken(scopes: scopes))
            } catch {
                return .failure(error)
            }
        }
    }

    /// The public key set to register for `private_key_jwt` (`sesame client add --jwks`); the
    /// key pair is created and stored on first use.
    public func clientPublicKeySet() async throws(SesameError) -> String {
        try await assertionSigner.publicJWKS()
    }

    private func requestAppToken(scopes: [String]?) async throws(SesameError) -> AppTokenCache.Token {
        guard configuration.clientSecret != nil || configuration.tokenEndpointAuthMethod == .privateKeyJWT else {
            throw .invalidConfiguration(
                "app-level tokens need a client that authenticates: set client_secret or token_endpoint_auth_method private_key_jwt")
        }
        let metadata = try await metadata()
        let tokens = try await tokenEndpoint.clientCredentials(scopes: scopes, metadata: metadata)
        logger.debug("obtained an app-level token")
        return AppTokenCache.Token(
            value: tokens.accessToken, expiresAt: tokens.expiresIn.map { clock.now().addingTimeInterval(TimeInterval($0)) })
    }
}

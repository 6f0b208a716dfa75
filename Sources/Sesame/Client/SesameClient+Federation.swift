import Foundation
import Logging
import SesameProtocol

extension SesameClient {
    // MARK: Federation (docs/federation.md)

    /// Signs in with an ID token the app already holds from another provider (a vendor's own
    /// account system, Google, Apple): the server checks it against the provider registered as
    /// `provider`, finds or creates the account, and answers with this app's tokens (RFC 8693
    /// token exchange). A normal session from here on.
    ///
    /// - Parameters:
    ///   - idToken: the provider's ID token, as the provider's SDK returned it.
    ///   - provider: the name the provider is registered under on the server (`sesame provider add`).
    ///   - nonce: the nonce the app gave the provider, if any (the server checks it; for Apple,
    ///     against its SHA-256).
    /// - Throws: the server's refusal as ``SesameError/Code-swift.struct/authenticationFailed`` or
    ///   ``SesameError/Code-swift.struct/requestFailed`` with its `error_code` (2013–2019: unknown
    ///   provider, invalid token, another audience, expired, a missing email, an unverified
    ///   email, an account that exists).
    @discardableResult
    package func signIn(withProviderToken idToken: String, provider: String, nonce: String? = nil) async throws(SesameError)
        -> Account
    {
        guard configuration.federationProviders.isEmpty || configuration.federationProviders.contains(provider) else {
            throw .invalidConfiguration(
                "the provider \"\(provider)\" is not in federation_providers (\(configuration.federationProviders.joined(separator: ", ")))")
        }
        return try await analytics.signIn("federation") { () async throws(SesameError) -> Account in
            let metadata = try await metadata()
            let dpopKey = try dpopKeyForSignIn(metadata)
            let tokens = try await tokenEndpoint.exchangeProviderToken(
                idToken, provider: provider, nonce: nonce, scopes: configuration.scopes, metadata: metadata,
                dpopKey: dpopKey)
            return try await establishSession(
                tokens,
                expected: expectations(
                    metadata: metadata, nonce: nil, maxAge: nil, acrValues: nil, accessToken: tokens.accessToken),
                metadata: metadata, username: nil, dpopKey: dpopKey)
        }
    }

    /// The providers to offer on the app's sign-in screen (``SesameConfiguration/federationProviders``).
    public nonisolated var configuredProviders: [String] { configuration.federationProviders }

    /// Signs in through a provider SDK the app embeds: a fresh nonce, the provider's sign-in,
    /// then ``signIn(withProviderToken:provider:nonce:)``.
    @discardableResult
    package func signIn(with provider: any FederationProvider) async throws(SesameError) -> Account {
        let nonce = SecureRandom.token(byteCount: 16)
        let credential = try await provider.signIn(nonce: nonce)
        return try await signIn(withProviderToken: credential.idToken, provider: provider.name, nonce: nonce)
    }
}

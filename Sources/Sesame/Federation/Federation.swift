import Foundation
import SesameProtocol

extension SesameClient {
    /// Sign-in with another provider's ID token (docs/federation.md: Sign in with Apple, Google,
    /// a vendor's own account system); take it with ``SesameClient/federation``. The server
    /// checks the token against the provider registered under that name, finds or creates the
    /// account, and answers with this app's tokens (RFC 8693 token exchange): a normal session
    /// from there on.
    public struct Federation: Sendable {
        let client: SesameClient

        /// Signs in with an ID token the app already holds from the provider registered as
        /// `provider`.
        ///
        /// - Parameters:
        ///   - idToken: the provider's ID token, as the provider's SDK returned it.
        ///   - provider: the name the provider is registered under on the server (`sesame provider add`).
        ///   - nonce: the nonce the app gave the provider, if any (the server checks it; for Apple,
        ///     against its SHA-256).
        /// - Throws: ``SesameError/Code-swift.struct/invalidConfiguration`` for a provider not in
        ///   ``SesameConfiguration/federationProviders`` (when that list is set); the server's
        ///   refusal as ``SesameError/Code-swift.struct/authenticationFailed`` or
        ///   ``SesameError/Code-swift.struct/requestFailed`` with its `error_code` (2013–2019:
        ///   unknown provider, invalid token, another audience, expired, a missing email, an
        ///   unverified email, an account that exists).
        @discardableResult
        public func signIn(withProviderToken idToken: String, provider: String, nonce: String? = nil)
            async throws(SesameError) -> Account
        {
            let configuration = client.configuration
            guard configuration.federationProviders.isEmpty || configuration.federationProviders.contains(provider) else {
                throw .invalidConfiguration(
                    "the provider \"\(provider)\" is not in federation_providers (\(configuration.federationProviders.joined(separator: ", ")))")
            }
            let client = self.client
            return try await client.analytics.signIn("federation") { () async throws(SesameError) -> Account in
                try await client.signIn { (metadata, dpopKey) async throws(SesameError) in
                    try await client.tokenEndpoint.exchangeProviderToken(
                        idToken, provider: provider, nonce: nonce, scopes: configuration.scopes, metadata: metadata,
                        dpopKey: dpopKey)
                }
            }
        }

        /// Signs in through a provider SDK the app embeds: a fresh nonce, the provider's sign-in,
        /// then ``signIn(withProviderToken:provider:nonce:)``.
        @discardableResult
        public func signIn(with provider: any FederationProvider) async throws(SesameError) -> Account {
            let nonce = SecureRandom.token(byteCount: 16)
            let credential = try await provider.signIn(nonce: nonce)
            return try await signIn(withProviderToken: credential.idToken, provider: provider.name, nonce: nonce)
        }
    }

    /// Sign-in with another provider's ID token (Sign in with Apple, Google, a vendor's own).
    public nonisolated var federation: Federation { Federation(client: self) }

    /// The providers to offer on the app's sign-in screen (``SesameConfiguration/federationProviders``).
    public nonisolated var configuredProviders: [String] { configuration.federationProviders }
}

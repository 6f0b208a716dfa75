import Foundation
import SesameProtocol

extension SesameClient {
    /// Sign-in with another provider's ID token (docs/federation.md); take it with
    /// ``SesameClient/federation``.
    public struct Federation: Sendable {
        let client: SesameClient

        /// Exchanges an ID token the app holds from the provider registered as `provider`.
        public func signIn(withProviderToken idToken: String, provider: String, nonce: String? = nil)
            async throws(SesameError) -> Account
        {
            try await client.signIn(withProviderToken: idToken, provider: provider, nonce: nonce)
        }

        /// Signs in through a provider adapter (Sign in with Apple, a social SDK).
        public func signIn(with provider: any FederationProvider) async throws(SesameError) -> Account {
            try await client.signIn(with: provider)
        }
    }
}

import Foundation

/// Federation providers and the identities linked to local accounts (docs/federation.md).
public protocol FederationStore: Sendable {
    func upsertFederationProvider(_ provider: FederationProviderRecord) async throws
    func federationProvider(id: String) async throws -> FederationProviderRecord?
    func federationProviders() async throws -> [FederationProviderRecord]
    /// Removes the provider and every identity linked through it; `false` when unknown.
    @discardableResult func removeFederationProvider(id: String) async throws -> Bool

    /// Links; ``StoreError/conflict(field:)`` when (provider, subject) is linked already.
    func linkFederatedIdentity(_ identity: FederatedIdentityRecord) async throws
    func federatedIdentity(providerID: String, subject: String) async throws -> FederatedIdentityRecord?
    func federatedIdentities(userID: String) async throws -> [FederatedIdentityRecord]
    @discardableResult func unlinkFederatedIdentity(providerID: String, subject: String) async throws -> Bool

    /// Records that a provider's ID token was used to sign in, until `expiresAt` (its `exp`
    /// plus leeway); `false` when it was recorded already (a replay), by any process sharing the
    /// store. `digest` is a ``SecretDigest`` of the token: the token itself is never stored.
    func recordFederatedToken(providerID: String, digest: String, expiresAt: Date) async throws -> Bool
}

import SesameStore
import Foundation
import SesameProtocol

// Federation providers (`sesame provider add|list|remove`, docs/federation.md).
extension ServerAdmin {
    /// Registers (or replaces) a provider after ``ProviderValidation``; returns it completed.
    ///
    /// - Parameter brokerClientSecret: with ``FederationProviderRecord/brokerClientID``, the
    ///   secret Sesame has at the provider for the hosted "Continue with …" sign-in; sealed with
    ///   the master key before it is stored.
    @discardableResult
    public func addFederationProvider(
        _ provider: FederationProviderRecord, brokerClientSecret: String? = nil
    ) async throws -> FederationProviderRecord {
        var checked: FederationProviderRecord
        do {
            checked = try ProviderValidation.check(provider)
        } catch {
            throw AdminError.invalidProvider(field: error.field, reason: error.reason)
        }
        if let brokerClientSecret {
            guard checked.brokerClientID != nil, !brokerClientSecret.isEmpty else {
                throw AdminError.invalidProvider(
                    field: "broker_client_secret", reason: "goes with broker_client_id, the client Sesame has at the provider")
            }
            checked.brokerClientSecretSealed = try keyRing.sealSecret(
                brokerClientSecret, context: ProviderSecrets.context(checked.id))
        } else if checked.brokerClientID != nil, checked.brokerClientSecretSealed == nil {
            throw AdminError.invalidProvider(field: "broker_client_secret", reason: "is required with broker_client_id")
        }
        try await store.upsertFederationProvider(checked)
        try await audit(.providerAdded, detail: ["provider": checked.id, "kind": checked.kind.rawValue])
        return checked
    }

    public func federationProviders() async throws -> [FederationProviderRecord] {
        try await store.federationProviders()
    }

    /// Removes the provider and unlinks every identity linked through it.
    public func removeFederationProvider(id: String) async throws {
        guard try await store.removeFederationProvider(id: id) else { throw AdminError.providerNotFound(id: id) }
        try await audit(.providerRemoved, detail: ["provider": id])
    }
}

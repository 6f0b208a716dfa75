import SesameStore

/// The sealing context of a provider's broker client secret (``KeyRing/sealSecret(_:context:)``):
/// a secret sealed for one provider does not open as another's.
package enum ProviderSecrets {
    package static func context(_ providerID: String) -> String { "federation-client-secret:" + providerID }
}

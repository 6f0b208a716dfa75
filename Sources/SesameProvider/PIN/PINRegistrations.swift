import Foundation
import SesameProtocol
import SesameStore

/// A device's PIN registrations as the provider's logic uses them (docs/pin-devices.md): the
/// client's policy, a registration looked up for its client, revocation with its tokens, and
/// the single-use nonces a device signs.
package struct PINRegistrations: Sendable {
    package let store: any ProviderStore
    package var pinStore: any PINStore { store }
    package let nonces: PINNonceIssuer
    package let audit: AuditLog
    package let now: @Sendable () -> Date

    package init(store: any ProviderStore, nonces: PINNonceIssuer, audit: AuditLog, now: @escaping @Sendable () -> Date) {
        self.store = store
        self.nonces = nonces
        self.audit = audit
        self.now = now
    }

    /// The client's policy (the default when the operator set none).
    package func policy(clientID: String) async throws -> PINPolicy {
        try await pinStore.pinPolicy(clientID: clientID) ?? PINPolicy()
    }

    /// The registration `id` when it exists and belongs to `clientID`; `nil` otherwise (the
    /// callers answer `pin_registration_revoked`).
    package func registration(_ id: String, clientID: String) async throws -> PINRegistrationRecord? {
        guard let record = try await pinStore.pinRegistration(id: id), record.clientID == clientID else { return nil }
        return record
    }

    /// Removes a registration and ends every token issued through it; `reason` is what a later
    /// refresh with one of them is told (``RefreshFamilyRevocationReason``).
    package func revoke(_ registration: PINRegistrationRecord, reason: RefreshFamilyRevocationReason = .pinRemoved)
        async throws
    {
        try await pinStore.removePINRegistration(id: registration.id)
        try await store.revokeRefreshTokens(sessionID: registration.sessionID, now: now(), reason: reason)
    }
}

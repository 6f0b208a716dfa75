import Foundation
import SesameProtocol

/// The parts of the server the PIN slice uses (docs/pin-devices.md): registrations and policies,
/// the nonces, bearer authentication of the account APIs, token revocation, the audit log.
struct PINServices: Sendable {
    let store: any ProviderStore
    var pinStore: any PINStore { store }
    let nonces: PINNonceIssuer
    let bearerAuthentication: BearerAuthentication
    let localizer: any Localizer
    let audit: AuditLog
    let now: @Sendable () -> Date

    /// `nil` when the server runs without PIN nonces.
    init?(_ services: ServerServices) {
        guard let nonces = services.pinNonces else { return nil }
        store = services.store
        self.nonces = nonces
        bearerAuthentication = services.bearerAuthentication
        localizer = services.localizer
        audit = services.audit
        now = services.now
    }

    /// The client's policy (the default when the operator set none).
    func policy(clientID: String) async throws -> PINPolicy {
        try await pinStore.pinPolicy(clientID: clientID) ?? PINPolicy()
    }

    /// The registration `id` when it exists and belongs to `clientID`; `nil` otherwise (the
    /// callers answer `pin_registration_revoked`).
    func registration(_ id: String, clientID: String) async throws -> PINRegistrationRecord? {
        guard let record = try await pinStore.pinRegistration(id: id), record.clientID == clientID else { return nil }
        return record
    }

    /// Removes a registration and ends every token issued through it; `reason` is what a later
    /// refresh with one of them is told (``RefreshFamilyRevocationReason``).
    func revoke(_ registration: PINRegistrationRecord, reason: RefreshFamilyRevocationReason = .pinRemoved) async throws {
        try await pinStore.removePINRegistration(id: registration.id)
        try await store.revokeRefreshTokens(sessionID: registration.sessionID, now: now(), reason: reason)
    }
}

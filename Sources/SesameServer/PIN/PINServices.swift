import Foundation
import SesameProtocol

/// The parts of the server the PIN slice uses (docs/pin-devices.md): registrations and policies,
/// the nonces, token revocation and the audit log (``PINRegistrations``), bearer authentication
/// of the account APIs and the localizer of its error messages.
struct PINServices: Sendable {
    /// Registrations, policies, nonces and the audit log (``PINRegistrations``).
    let registrations: PINRegistrations
    let bearerAuthentication: BearerAuthentication
    let localizer: any Localizer

    init(_ services: ServerServices) {
        registrations = PINRegistrations(
            store: services.store, nonces: services.pinNonces, audit: services.audit, now: services.now)
        bearerAuthentication = services.bearerAuthentication
        localizer = services.localizer
    }
}

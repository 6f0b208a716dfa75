import Foundation
import SesameProtocol

/// PIN registrations and the per-client PIN policies (docs/pin-devices.md). Failure counting is
/// one statement, so concurrent wrong PINs on several processes are all counted.
public protocol PINStore: Sendable {
    func insertPINRegistration(_ registration: PINRegistrationRecord) async throws
    func pinRegistration(id: String) async throws -> PINRegistrationRecord?
    func pinRegistrations(userID: String) async throws -> [PINRegistrationRecord]
    /// Counts one wrong PIN; the failures in a row now (`nil`: no such registration).
    func recordPINFailure(id: String) async throws -> Int?
    /// A right PIN: failures start over, the last use is `now`.
    func recordPINSuccess(id: String, now: Date) async throws
    /// `true` when a registration was removed.
    @discardableResult
    func removePINRegistration(id: String) async throws -> Bool

    /// The client's policy, `nil` for the default.
    func pinPolicy(clientID: String) async throws -> PINPolicy?
    func setPINPolicy(_ policy: PINPolicy?, clientID: String) async throws
}

import Foundation
import SesameProtocol

/// PIN registrations and the per-client PIN policies (docs/pin-devices.md). A PIN guess is
/// reserved before it is verified, in one conditional statement, so of any number of concurrent
/// guesses on any number of processes no more than the policy's maximum are verified.
public protocol PINStore: Sendable {
    func insertPINRegistration(_ registration: PINRegistrationRecord) async throws
    func pinRegistration(id: String) async throws -> PINRegistrationRecord?
    func pinRegistrations(userID: String) async throws -> [PINRegistrationRecord]
    /// Reserves one PIN attempt before the unlock signature is verified: counts it as a failure
    /// unless `maxAttempts` failures in a row were counted already, and returns the failures now,
    /// this one included. `nil` when none is left or the registration is gone: nothing may be
    /// verified then. A right PIN settles with ``settlePINSuccess(id:now:)``; a wrong one is
    /// already counted.
    func reservePINAttempt(id: String, maxAttempts: Int) async throws -> Int?
    /// Settles a reserved attempt whose signature verified: failures start over, the last use is
    /// `now`. `false` when the registration was removed meanwhile (revoked after too many wrong
    /// PINs, or by the user): no tokens may be issued then.
    func settlePINSuccess(id: String, now: Date) async throws -> Bool
    /// `true` when a registration was removed.
    @discardableResult
    func removePINRegistration(id: String) async throws -> Bool

    /// The client's policy, `nil` for the default.
    func pinPolicy(clientID: String) async throws -> PINPolicy?
    func setPINPolicy(_ policy: PINPolicy?, clientID: String) async throws
}

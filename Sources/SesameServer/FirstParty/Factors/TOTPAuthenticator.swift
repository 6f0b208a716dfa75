import Foundation
import SesameProtocol

/// Keeps TOTP secrets sealed at rest and checks TOTP codes against a user's enrolment
/// (RFC 6238): ±1 step of drift, and a step accepted once is never accepted again (§5.2),
/// whether it was used to confirm the enrolment or to sign in.
struct TOTPAuthenticator: Sendable {
    let services: FirstPartyServices

    /// The secret (base32) sealed with the master key, bound to the user.
    func seal(_ base32Secret: String, userID: String) throws -> String {
        try services.keyRing.sealSecret(base32Secret, context: Self.context(userID))
    }

    /// `true` when `code` is valid now for the enrolment and its time step was not used before.
    func verify(_ code: String, enrollment: MFAEnrollmentRecord) async throws -> Bool {
        guard enrollment.method == .totp, let sealed = enrollment.sealedSecret else { return false }
        let secret = try services.keyRing.openSecret(sealed, context: Self.context(enrollment.userID))
        guard let key = Base32.decode(secret),
            let step = TOTP(secret: key).matchingStep(for: code, at: services.now())
        else { return false }
        return try await services.mfaStore.useTOTPStep(userID: enrollment.userID, step: step)
    }

    private static func context(_ userID: String) -> String { "totp:" + userID }
}

import Foundation
import SesameProtocol
import SesameStore

/// Keeps TOTP secrets sealed at rest and checks TOTP codes against a user's enrolment
/// (RFC 6238): ±1 step of drift, and a step accepted once is never accepted again (§5.2),
/// whether it was used to confirm the enrolment or to sign in.
package struct TOTPAuthenticator: Sendable {
    let keyRing: KeyRing
    let store: any MFAStore
    let now: @Sendable () -> Date

    package init(keyRing: KeyRing, store: any MFAStore, now: @escaping @Sendable () -> Date) {
        self.keyRing = keyRing
        self.store = store
        self.now = now
    }

    /// The secret (base32) sealed with the master key, bound to the user.
    package func seal(_ base32Secret: String, userID: String) throws -> String {
        try keyRing.sealSecret(base32Secret, context: Self.context(userID))
    }

    /// `true` when `code` is valid now for the enrolment and its time step was not used before.
    package func verify(_ code: String, enrollment: MFAEnrollmentRecord) async throws -> Bool {
        guard enrollment.method == .totp, let sealed = enrollment.sealedSecret else { return false }
        let secret = try keyRing.openSecret(sealed, context: Self.context(enrollment.userID))
        guard let key = Base32.decode(secret),
            let step = TOTP(secret: key).matchingStep(for: code, at: now())
        else { return false }
        return try await store.useTOTPStep(userID: enrollment.userID, step: step)
    }

    private static func context(_ userID: String) -> String { "totp:" + userID }
}

import SesameProtocol
import SesameStore

/// Decides whether a sign-in needs a second factor and which methods the user may use for it
/// (docs/first-party-and-accounts.md, "Client MFA policy"), from the client's ``MFAPolicy``, the requested
/// `acr_values` (``RequestedACR``: only when they accept nothing but MFA) and the user's
/// enrolments.
package struct MFARequirement: Sendable, Equatable {
    package enum Decision: Sendable, Equatable {
        /// Password alone suffices: `acr` `urn:sesame:acr:pwd`.
        case notRequired
        /// A second factor is needed; the user may use any of these (never empty).
        case required([MFAMethod])
        /// A second factor is needed but the user has no way to give one.
        case unavailable
    }

    package var policy: MFAPolicy
    /// The request accepts only `urn:sesame:acr:mfa` (``RequestedACR/requiresMultiFactor``), or
    /// this is a step-up. `acr_values` listing both classes leave the decision to ``policy``.
    package var requested: Bool
    /// Offer email codes to a user without an enrolled method whose email is verified.
    package var emailFallback: Bool

    package init(policy: MFAPolicy, requested: Bool, emailFallback: Bool) {
        self.policy = policy
        self.requested = requested
        self.emailFallback = emailFallback
    }

    package func decide(usable: [MFAMethod], emailVerified: Bool) -> Decision {
        let needed =
            requested || policy == .always || (policy == .whenEnrolled && !usable.isEmpty)
        guard needed else { return .notRequired }
        if !usable.isEmpty { return .required(usable) }
        if emailFallback && emailVerified { return .required([.email]) }
        return .unavailable
    }

    /// The methods a user can use now, in ``MFAMethod/allCases`` order: confirmed TOTP and SMS
    /// enrolments, email codes when enrolled and the address is still verified, and a passkey
    /// when the user has one (`hasPasskey`, docs/passkeys.md).
    package static func usableMethods(
        _ enrollments: [MFAEnrollmentRecord], emailVerified: Bool, hasPasskey: Bool = false
    ) -> [MFAMethod] {
        MFAMethod.allCases.filter { method in
            if method == .passkey { return hasPasskey }
            guard let enrollment = enrollments.first(where: { $0.method == method }), enrollment.confirmed
            else { return false }
            return method != .email || emailVerified
        }
    }

    /// The methods `user` can use now, read from the store: enrolments, and whether the user has
    /// a passkey (``Passkeys``). Every MFA decision reads them here, so the sign-in, the step-up,
    /// the hosted MFA step and the browser session's reuse agree.
    package static func usableMethods(
        for user: UserRecord, mfaStore: any MFAStore, passkeys: Passkeys
    ) async throws -> [MFAMethod] {
        let enrollments = try await mfaStore.mfaEnrollments(userID: user.id)
        let hasPasskey = try await !passkeys.store.passkeys(userID: user.id).isEmpty
        return usableMethods(enrollments, emailVerified: user.emailVerified, hasPasskey: hasPasskey)
    }

    /// `true` when the space-separated `acr_values` accept only multi-factor authentication
    /// (OIDC Core §3.1.2.1: a voluntary list in order of preference; see ``RequestedACR``).
    package static func asksForMFA(_ acrValues: String?) -> Bool {
        RequestedACR(acrValues).requiresMultiFactor
    }
}

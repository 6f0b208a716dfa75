import Foundation
import Hummingbird
import SesameProtocol

/// MFA enrolment (docs/first-party-and-accounts.md; bearer access token, RFC 6750 §2.1):
/// `GET /api/mfa`, `POST /api/mfa/email`, `DELETE /api/mfa/{method}`. TOTP and SMS enrolment,
/// which need a confirmation code, are in ``TOTPEnrollmentEndpoint`` and
/// ``SMSEnrollmentEndpoint``.
struct MFAEnrollmentEndpoints: Sendable {
    let provider: Provider
    let bearer: BearerAuthentication

    /// `GET /api/mfa` → ``MFAEnrollmentList``.
    func list(_ request: Request, context: SesameRequestContext) async throws -> Response {
        let (_, user) = try await bearer
            .authenticateFirstParty(request, context: context)
        let enrollments = try await provider.store.mfaEnrollments(userID: user.id)
        context.annotations.record(outcome: "mfa_list")
        return JSONResponse.make(MFAEnrollmentList(methods: enrollments.map { Self.status($0, user: user) }))
    }

    /// `POST /api/mfa/email`: email codes to the verified address (2008 when not verified).
    func enableEmail(_ request: Request, context: SesameRequestContext) async throws -> Response {
        let (_, user) = try await bearer
            .authenticateFirstParty(request, context: context)
        guard user.emailVerified else {
            throw EndpointFailure(
                .emailNotVerified, "Verify the email address first (POST /api/signup/confirm), then enable email codes.")
        }
        let enrollment = MFAEnrollmentRecord(
            userID: user.id, method: .email, confirmed: true, createdAt: provider.now(),
            confirmedAt: provider.now())
        try await provider.store.saveMFAEnrollment(enrollment)
        context.annotations.record(outcome: "mfa_email_enabled")
        return JSONResponse.make(Self.status(enrollment, user: user))
    }

    /// `DELETE /api/mfa/{method}` → 204, or 404 when the method (`nil`: unknown) is not enrolled.
    func remove(_ method: MFAMethod?, request: Request, context: SesameRequestContext) async throws -> Response {
        let (_, user) = try await bearer
            .authenticateFirstParty(request, context: context)
        guard let method, try await provider.store.removeMFAEnrollment(userID: user.id, method: method)
        else {
            throw EndpointFailure(.notFound, "That method is not enrolled; GET /api/mfa lists the enrolled ones.")
        }
        context.annotations.record(outcome: "mfa_removed")
        return Response(status: .noContent, headers: [.cacheControl: "no-store"])
    }

    /// The wire view of an enrolment, destination masked.
    static func status(_ enrollment: MFAEnrollmentRecord, user: UserRecord) -> MFAEnrollmentStatus {
        MFAEnrollmentStatus(enrollment, user: user)
    }
}

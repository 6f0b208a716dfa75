import Foundation
import Hummingbird
import SesameProtocol

/// SMS enrolment (docs/first-party-and-accounts.md): `POST /api/mfa/sms` `{"phone_number": "+4712345678"}`
/// (E.164) sends a code by SMS and answers 202 with the pending enrolment
/// (`confirmed: false`); `POST /api/mfa/sms/confirm` `{"code"}` confirms the number, which
/// also becomes the profile's verified `phone_number` (OIDC Core §5.1), see
/// ``verifiedPhoneClaims(_:number:)``.
struct SMSEnrollmentEndpoint: Sendable {
    let provider: Provider
    let bearer: BearerAuthentication

    func start(_ request: Request, context: SesameRequestContext) async throws -> Response {
        let (_, user) = try await bearer
            .authenticateFirstParty(request, context: context)
        let body = try await JSONRequest.decode(
            SMSEnrollmentRequest.self, from: request, context: context, required: ["phone_number"],
            validation: AccountValidation(request: request, localizer: provider.localizer)
        ).value
        let locales = LocalePreference.from(request: request)
        guard PhoneNumber.isValidE164(body.phoneNumber) else {
            let code = body.phoneNumber.isEmpty ? "required" : "invalid_format"
            throw EndpointFailure(
                .validationFailed, "phone_number must be in E.164 form, e.g. +4712345678.",
                details: [provider.localizer.fieldError(field: "phone_number", code: code, locales: locales)])
        }
        let existing = try await provider.store.mfaEnrollments(userID: user.id).first { $0.method == .sms }
        if existing?.confirmed == true {
            throw EndpointFailure(
                .invalidRequest, "SMS codes are already set up; remove them with DELETE /api/mfa/sms to use another number.")
        }
        let code = OneTimeCode.generate()
        let now = provider.now()
        let enrollment = MFAEnrollmentRecord(
            userID: user.id, method: .sms, confirmed: false, phoneNumber: body.phoneNumber,
            codeDigest: SecretDigest.of(code), codeExpiresAt: now.addingTimeInterval(OneTimeCode.lifetime),
            createdAt: now)
        try await provider.store.saveMFAEnrollment(enrollment)
        try await provider.mfaDelivery.send(code, channel: .sms, to: body.phoneNumber, locales: locales)
        context.annotations.record(outcome: "mfa_sms_started")
        return JSONResponse.make(MFAEnrollmentEndpoints.status(enrollment, user: user), status: .accepted)
    }

    func confirm(_ request: Request, context: SesameRequestContext) async throws -> Response {
        let (_, user) = try await bearer
            .authenticateFirstParty(request, context: context)
        let body = try await JSONRequest.decode(
            MFACodeSubmission.self, from: request, context: context, required: ["code"],
            validation: AccountValidation(request: request, localizer: provider.localizer)
        ).value
        let enrollment = try await provider.enrollment.confirm(
            .sms, user: user, code: body.code, locales: LocalePreference.from(request: request)
        ) { pending in
            guard let digest = pending.codeDigest else { return false }
            return OneTimeCode.matches(body.code, digest: digest)
        }
        if let number = enrollment.phoneNumber, let claims = Self.verifiedPhoneClaims(user.claims, number: number) {
            var updated = user
            let now = provider.now()
            updated.claims = claims
            updated.claims.updatedAt = Int(now.timeIntervalSince1970)
            updated.updatedAt = now
            try await provider.store.updateUser(updated)
        }
        context.annotations.record(outcome: "mfa_sms_confirmed")
        return JSONResponse.make(MFAEnrollmentEndpoints.status(enrollment, user: user))
    }

    /// The code proved the user receives SMS at `number`, so it is their verified
    /// `phone_number` (OIDC Core §5.1 `phone_number_verified`): set when the profile has no
    /// number, an unverified one, or this one unverified. A different number that is already
    /// verified is kept. `nil` when nothing changes.
    static func verifiedPhoneClaims(_ claims: StandardClaims, number: String) -> StandardClaims? {
        if claims.phoneNumber == number, claims.phoneNumberVerified == true { return nil }
        if let current = claims.phoneNumber, current != number, claims.phoneNumberVerified == true { return nil }
        var result = claims
        result.phoneNumber = number
        result.phoneNumberVerified = true
        return result
    }
}

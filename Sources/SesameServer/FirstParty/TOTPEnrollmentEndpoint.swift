import Foundation
import Hummingbird
import SesameProtocol

/// TOTP enrolment (RFC 6238; docs/first-party-and-accounts.md): `POST /api/mfa/totp` issues a secret and its
/// `otpauth://` URI (Key Uri Format used by authenticator apps: issuer label, account name,
/// SHA1, 6 digits, 30 s); `POST /api/mfa/totp/confirm` `{"code"}` confirms it with a first code.
///
/// The secret is 20 random bytes, returned once in base32 and stored sealed with the master key.
struct TOTPEnrollmentEndpoint: Sendable {
    let provider: Provider
    let bearer: BearerAuthentication

    func start(_ request: Request, context: SesameRequestContext) async throws -> Response {
        let (_, user) = try await bearer
            .authenticateFirstParty(request, context: context)
        let existing = try await provider.store.mfaEnrollments(userID: user.id).first { $0.method == .totp }
        if existing?.confirmed == true {
            throw EndpointFailure(
                .invalidRequest, "TOTP is already set up; remove it with DELETE /api/mfa/totp to enrol a new one.")
        }
        let secret = Base32.encode(TOTP.newSecret())
        try await provider.store.saveMFAEnrollment(
            MFAEnrollmentRecord(
                userID: user.id, method: .totp, confirmed: false,
                sealedSecret: try provider.totp.seal(secret, userID: user.id),
                createdAt: provider.now()))
        context.annotations.record(outcome: "mfa_totp_started")
        return JSONResponse.make(
            TOTPEnrollment(secret: secret, otpauthURI: otpauthURI(secret: secret, account: user.username)))
    }

    func confirm(_ request: Request, context: SesameRequestContext) async throws -> Response {
        let (_, user) = try await bearer
            .authenticateFirstParty(request, context: context)
        let body = try await JSONRequest.decode(
            MFACodeSubmission.self, from: request, context: context, required: ["code"],
            validation: AccountValidation(request: request, localizer: provider.localizer)
        ).value
        let authenticator = provider.totp
        let enrollment = try await provider.enrollment.confirm(
            .totp, user: user, code: body.code, locales: LocalePreference.from(request: request)
        ) { try await authenticator.verify(body.code, enrollment: $0) }
        context.annotations.record(outcome: "mfa_totp_confirmed")
        return JSONResponse.make(MFAEnrollmentEndpoints.status(enrollment, user: user))
    }

    /// `otpauth://totp/<issuer>:<account>?secret=…&issuer=…&algorithm=SHA1&digits=6&period=30`.
    /// The issuer label is the issuer's host, or "Sesame" when it has none.
    func otpauthURI(secret: String, account: String) -> String {
        let issuer = provider.settings.issuer.host.flatMap { $0.isEmpty ? nil : $0 } ?? "Sesame"
        let label = Self.escape(issuer) + ":" + Self.escape(account)
        return "otpauth://totp/\(label)?secret=\(secret)&issuer=\(Self.escape(issuer))&algorithm=SHA1&digits=6&period=30"
    }

    /// Percent-encodes everything but RFC 3986 unreserved characters.
    static func escape(_ text: String) -> String {
        let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        return text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
    }
}

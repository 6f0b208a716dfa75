import Foundation
import SesameProtocol

/// Second-factor enrolment of the signed-in user (docs/first-party-and-accounts.md; `/api/mfa`, bearer access
/// token). Enrolled methods are then offered by ``SesameClient/login(username:password:options:)``
/// and ``SesameClient/stepUp(acr:account:)``.
extension SesameClient {
    /// The user's second factors and whether each is confirmed (`GET /api/mfa`).
    package func mfaMethods(account: Account.ID? = nil) async throws(SesameError) -> [MFAEnrollmentStatus] {
        let (data, response) = try await accountData(accountAPI.request("GET", "mfa"), account)
        return try AccountAPI.decode(MFAEnrollmentList.self, data, response, what: "MFA methods").methods
    }

    /// Starts TOTP enrolment (RFC 6238; `POST /api/mfa/totp`): show the `otpauth://` URI as a
    /// QR code (or the secret), then confirm with ``confirmTOTP(code:account:)``. The secret is
    /// the user's second factor: never log or store it.
    package func enrollTOTP(account: Account.ID? = nil) async throws(SesameError) -> TOTPEnrollment {
        let (data, response) = try await accountData(
            try accountAPI.request("POST", "mfa", "totp", json: EmptyJSONBody()), account)
        return try AccountAPI.decode(TOTPEnrollment.self, data, response, what: "TOTP enrolment")
    }

    /// Completes TOTP enrolment with a code from the authenticator app (`POST /api/mfa/totp/confirm`).
    package func confirmTOTP(code: String, account: Account.ID? = nil) async throws(SesameError) {
        let (data, response) = try await accountData(
            try accountAPI.request("POST", "mfa", "totp", "confirm", json: MFACodeSubmission(code: code)), account)
        try AccountAPI.check(data, response, what: "TOTP confirmation")
    }

    /// Enables one-time codes by email to the user's verified address (`POST /api/mfa/email`).
    ///
    /// - Throws: ``SesameError`` with `error_code` 2008 when the email is not verified yet.
    package func enableEmailMFA(account: Account.ID? = nil) async throws(SesameError) {
        let (data, response) = try await accountData(
            try accountAPI.request("POST", "mfa", "email", json: EmptyJSONBody()), account)
        try AccountAPI.check(data, response, what: "email MFA")
    }

    /// Starts SMS enrolment (`POST /api/mfa/sms`): a code is sent to `phoneNumber` (E.164, e.g.
    /// `+4712345678`); finish with ``confirmSMS(code:account:)``.
    package func enrollSMS(phoneNumber: String, account: Account.ID? = nil) async throws(SesameError) {
        let (data, response) = try await accountData(
            try accountAPI.request("POST", "mfa", "sms", json: SMSEnrollmentRequest(phoneNumber: phoneNumber)),
            account)
        try AccountAPI.check(data, response, what: "SMS enrolment")
    }

    /// Completes SMS enrolment with the code sent by SMS (`POST /api/mfa/sms/confirm`).
    package func confirmSMS(code: String, account: Account.ID? = nil) async throws(SesameError) {
        let (data, response) = try await accountData(
            try accountAPI.request("POST", "mfa", "sms", "confirm", json: MFACodeSubmission(code: code)), account)
        try AccountAPI.check(data, response, what: "SMS confirmation")
    }

    /// Removes a second factor (`DELETE /api/mfa/{method}`).
    ///
    /// - Throws: ``SesameError/Code-swift.struct/requestFailed`` (HTTP 404) when it is not enrolled.
    package func disableMFA(_ method: MFAMethod, account: Account.ID? = nil) async throws(SesameError) {
        let (data, response) = try await accountData(accountAPI.request("DELETE", "mfa", method.rawValue), account)
        try AccountAPI.check(data, response, what: "MFA removal")
    }
}

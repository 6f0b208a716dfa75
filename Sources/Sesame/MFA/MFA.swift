import Foundation
import SesameProtocol

extension SesameClient {
    /// Second factors (docs/first-party-and-accounts.md); take it with ``SesameClient/mfa``:
    /// enrolment of the signed-in user (`/api/mfa`, the account's bearer token through
    /// ``SesameClient/data(for:account:)``), then step-up and re-authentication. Enrolled methods
    /// are offered by ``SesameClient/login(username:password:options:)`` and ``stepUp(acr:account:)``.
    public struct MFA: Sendable {
        let client: SesameClient
        private var api: AccountAPI { AccountAPI(issuer: client.configuration.issuer) }

        /// The user's second factors and whether each is confirmed (`GET /api/mfa`).
        public func methods(account: Account.ID? = nil) async throws(SesameError) -> [MFAEnrollmentStatus] {
            let (data, response) = try await client.data(for: api.request("GET", "mfa"), account: account)
            return try AccountAPI.decode(MFAEnrollmentList.self, data, response, what: "MFA methods").methods
        }

        /// Starts TOTP enrolment (RFC 6238; `POST /api/mfa/totp`): show the `otpauth://` URI as a
        /// QR code (or the secret), then confirm with ``confirmTOTP(code:account:)``. The secret is
        /// the user's second factor: never log or store it.
        public func enrollTOTP(account: Account.ID? = nil) async throws(SesameError) -> TOTPEnrollment {
            let (data, response) = try await client.data(
                for: try api.request("POST", "mfa", "totp", json: EmptyJSONBody()), account: account)
            return try AccountAPI.decode(TOTPEnrollment.self, data, response, what: "TOTP enrolment")
        }

        /// Completes TOTP enrolment with a code from the authenticator app (`POST /api/mfa/totp/confirm`).
        public func confirmTOTP(code: String, account: Account.ID? = nil) async throws(SesameError) {
            let (data, response) = try await client.data(
                for: try api.request("POST", "mfa", "totp", "confirm", json: MFACodeSubmission(code: code)), account: account)
            try AccountAPI.check(data, response, what: "TOTP confirmation")
        }

        /// Enables one-time codes by email to the user's verified address (`POST /api/mfa/email`).
        ///
        /// - Throws: ``SesameError`` with `error_code` 2008 when the email is not verified yet.
        public func enableEmail(account: Account.ID? = nil) async throws(SesameError) {
            let (data, response) = try await client.data(
                for: try api.request("POST", "mfa", "email", json: EmptyJSONBody()), account: account)
            try AccountAPI.check(data, response, what: "email MFA")
        }

        /// Starts SMS enrolment (`POST /api/mfa/sms`): a code is sent to `phoneNumber` (E.164, e.g.
        /// `+4712345678`); finish with ``confirmSMS(code:account:)``.
        public func enrollSMS(phoneNumber: String, account: Account.ID? = nil) async throws(SesameError) {
            let (data, response) = try await client.data(
                for: try api.request("POST", "mfa", "sms", json: SMSEnrollmentRequest(phoneNumber: phoneNumber)),
                account: account)
            try AccountAPI.check(data, response, what: "SMS enrolment")
        }

        /// Completes SMS enrolment with the code sent by SMS (`POST /api/mfa/sms/confirm`).
        public func confirmSMS(code: String, account: Account.ID? = nil) async throws(SesameError) {
            let (data, response) = try await client.data(
                for: try api.request("POST", "mfa", "sms", "confirm", json: MFACodeSubmission(code: code)), account: account)
            try AccountAPI.check(data, response, what: "SMS confirmation")
        }

        /// Removes a second factor (`DELETE /api/mfa/{method}`; a recent sign-in is required).
        ///
        /// - Throws: ``SesameError/Code-swift.struct/requestFailed`` (HTTP 404) when it is not enrolled.
        public func disable(_ method: MFAMethod, account: Account.ID? = nil) async throws(SesameError) {
            let (data, response) = try await client.data(for: api.request("DELETE", "mfa", method.rawValue), account: account)
            try AccountAPI.check(data, response, what: "MFA removal")
        }

        /// Asks for a stronger sign-in on the existing session (default: multi-factor), through the
        /// client's native sign-in (`/authorize-challenge` with `acr_values`).
        public func stepUp(acr: String = AuthenticationContextClass.multiFactor, account: Account.ID? = nil)
            async throws(SesameError) -> MFAChallenge
        {
            try await client.stepUp(acr: acr, account: account)
        }

        /// Proves the password again before a sensitive action, through the client's native
        /// sign-in (`max_age=0`).
        public func reauthenticate(password: String, account: Account.ID? = nil)
            async throws(SesameError) -> ReauthenticationResult
        {
            try await client.reauthenticate(password: password, account: account)
        }
    }

    /// Second factors: enrol and remove them; step-up and re-authentication.
    public nonisolated var mfa: MFA { MFA(client: self) }
}

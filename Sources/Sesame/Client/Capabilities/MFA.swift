import Foundation
import SesameProtocol

extension SesameClient {
    /// Second factors: enrolment, step-up and re-authentication (docs/first-party-and-accounts.md);
    /// take it with ``SesameClient/mfa``.
    public struct MFA: Sendable {
        let client: SesameClient

        /// The account's second factors and whether each is enabled.
        public func methods(account: Account.ID? = nil) async throws(SesameError) -> [MFAEnrollmentStatus] {
            try await client.mfaMethods(account: account)
        }

        /// Starts enrolling an authenticator app: the secret and its `otpauth://` URI.
        public func enrollTOTP(account: Account.ID? = nil) async throws(SesameError) -> TOTPEnrollment {
            try await client.enrollTOTP(account: account)
        }

        /// Confirms the authenticator app with a code it shows.
        public func confirmTOTP(code: String, account: Account.ID? = nil) async throws(SesameError) {
            try await client.confirmTOTP(code: code, account: account)
        }

        /// Turns on codes by email (to the account's verified address).
        public func enableEmail(account: Account.ID? = nil) async throws(SesameError) {
            try await client.enableEmailMFA(account: account)
        }

        /// Starts enrolling a phone for codes by SMS.
        public func enrollSMS(phoneNumber: String, account: Account.ID? = nil) async throws(SesameError) {
            try await client.enrollSMS(phoneNumber: phoneNumber, account: account)
        }

        /// Confirms the phone with the code sent to it.
        public func confirmSMS(code: String, account: Account.ID? = nil) async throws(SesameError) {
            try await client.confirmSMS(code: code, account: account)
        }

        /// Removes a second factor (a recent sign-in is required).
        public func disable(_ method: MFAMethod, account: Account.ID? = nil) async throws(SesameError) {
            try await client.disableMFA(method, account: account)
        }

        /// Asks for a stronger sign-in on the existing session (default: multi-factor).
        public func stepUp(acr: String = AuthenticationContextClass.multiFactor, account: Account.ID? = nil)
            async throws(SesameError) -> MFAChallenge
        {
            try await client.stepUp(acr: acr, account: account)
        }

        /// Proves the password again before a sensitive action.
        public func reauthenticate(password: String, account: Account.ID? = nil)
            async throws(SesameError) -> ReauthenticationResult
        {
            try await client.reauthenticate(password: password, account: account)
        }
    }
}

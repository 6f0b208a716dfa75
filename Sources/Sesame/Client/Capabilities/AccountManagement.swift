import Foundation
import SesameProtocol

extension SesameClient {
    /// The user's account through the server's account API (docs/first-party-and-accounts.md);
    /// take it with ``SesameClient/account``.
    public struct AccountManagement: Sendable {
        let client: SesameClient

        /// Creates an account; the email is confirmed with a code.
        public func signUp(
            email: String, password: String, username: String? = nil, profile: ProfileUpdate = ProfileUpdate()
        ) async throws(SesameError) -> SignUpResponse {
            try await client.signUp(email: email, password: password, username: username, profile: profile)
        }

        /// Confirms an email address with the code sent to it.
        public func confirmEmail(email: String, code: String) async throws(SesameError) -> EmailVerificationStatus {
            try await client.confirmEmail(email: email, code: code)
        }

        /// Sends a password-reset code (the answer never says whether the address exists).
        public func requestPasswordReset(email: String) async throws(SesameError) {
            try await client.requestPasswordReset(email: email)
        }

        /// Sets a new password with the reset code.
        public func resetPassword(email: String, code: String, newPassword: String) async throws(SesameError) {
            try await client.resetPassword(email: email, code: code, newPassword: newPassword)
        }

        /// Changes the password; the current one must be right.
        public func changePassword(current: String, new: String, account: Account.ID? = nil) async throws(SesameError) {
            try await client.changePassword(current: current, new: new, account: account)
        }

        /// Starts changing the email address; a code goes to the new one.
        public func changeEmail(to newEmail: String, account: Account.ID? = nil) async throws(SesameError) {
            try await client.changeEmail(to: newEmail, account: account)
        }

        /// Confirms the new email address with its code.
        public func confirmEmailChange(code: String, account: Account.ID? = nil)
            async throws(SesameError) -> EmailVerificationStatus
        {
            try await client.confirmEmailChange(code: code, account: account)
        }

        /// Deletes the account (the password is asked again) and signs it out here.
        public func delete(password: String, account: Account.ID? = nil) async throws(SesameError) {
            try await client.deleteAccount(password: password, account: account)
        }

        /// The user's profile claims.
        public func profile(account: Account.ID? = nil) async throws(SesameError) -> StandardClaims {
            try await client.profile(account: account)
        }

        /// Changes profile claims; returns the profile as stored.
        public func updateProfile(_ update: ProfileUpdate, account: Account.ID? = nil)
            async throws(SesameError) -> StandardClaims
        {
            try await client.updateProfile(update, account: account)
        }

        /// The devices registered for the account.
        public func devices(account: Account.ID? = nil) async throws(SesameError) -> [Device] {
            try await client.devices(account: account)
        }

        /// Registers (or renames) a device.
        public func registerDevice(id: String, name: String, type: String? = nil, account: Account.ID? = nil)
            async throws(SesameError) -> Device
        {
            try await client.registerDevice(id: id, name: name, type: type, account: account)
        }

        /// Removes a device.
        public func removeDevice(id: String, account: Account.ID? = nil) async throws(SesameError) {
            try await client.removeDevice(id: id, account: account)
        }

        /// The other providers' identities linked to the account.
        public func linkedIdentities(account: Account.ID? = nil) async throws(SesameError) -> [LinkedIdentity] {
            try await client.linkedIdentities(account: account)
        }

        /// Unlinks another provider's identity.
        public func unlinkIdentity(provider: String, subject: String, account: Account.ID? = nil) async throws(SesameError) {
            try await client.unlinkIdentity(provider: provider, subject: subject, account: account)
        }
    }
}

import Foundation
import Logging
import SesameProtocol

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension SesameClient {
    /// The user's account through Sesame's account API (docs/first-party-and-accounts.md); take
    /// it with ``SesameClient/account``: sign-up with email verification, password reset and
    /// change, email change, profile, devices, linked identities and deletion.
    ///
    /// Calls marked "signed in" send the account's access token through
    /// ``SesameClient/data(for:account:)`` (refreshed and retried once on a 401). Rejections
    /// throw ``SesameError`` with the provider's `APIError` intact (``SesameError/fieldErrors``
    /// for validation failures). The "signed in" calls need the client to be registered as
    /// first-party on the provider; otherwise they fail with HTTP 403 `insufficient_scope`,
    /// `error_code` 1021.
    public struct AccountManagement: Sendable {
        let client: SesameClient
        private var api: AccountAPI { AccountAPI(issuer: client.configuration.issuer) }

        // MARK: Sign-up and password reset (no session needed)

        /// Creates an account (`POST /api/signup`). The provider emails a verification code; pass
        /// it to ``confirmEmail(email:code:)``. Does not sign in: call
        /// ``SesameClient/login(username:password:options:)``.
        ///
        /// - Throws: ``SesameError/Code-swift.struct/requestFailed`` with `error_code` 3001 (email taken),
        ///   3002 (weak password) or 3000 with ``SesameError/fieldErrors``.
        public func signUp(
            email: String, password: String, username: String? = nil, profile: ProfileUpdate = ProfileUpdate()
        ) async throws(SesameError) -> SignUpResponse {
            let body = SignUpRequest(
                clientID: client.configuration.clientID, email: email, password: password, username: username,
                profile: profile)
            let (data, response) = try await client.http.send(try api.request("POST", "signup", json: body))
            client.logger.info("signed up", metadata: ["status": "\(response.statusCode)"])
            return try AccountAPI.decode(SignUpResponse.self, data, response, what: "sign-up")
        }

        /// Verifies the email address of a new account with the emailed code (`POST /api/signup/confirm`).
        public func confirmEmail(email: String, code: String) async throws(SesameError) -> EmailVerificationStatus {
            let body = EmailVerificationRequest(email: email, code: code)
            let (data, response) = try await client.http.send(try api.request("POST", "signup", "confirm", json: body))
            return try AccountAPI.decode(EmailVerificationStatus.self, data, response, what: "email verification")
        }

        /// Asks for a password reset code by email (`POST /api/password/reset`). Succeeds whether or
        /// not the address has an account (the provider does not reveal which).
        public func requestPasswordReset(email: String) async throws(SesameError) {
            let body = PasswordResetRequest(email: email)
            let (data, response) = try await client.http.send(try api.request("POST", "password", "reset", json: body))
            try AccountAPI.check(data, response, what: "password reset")
        }

        /// Sets a new password with the emailed code (`POST /api/password/reset/confirm`). The
        /// provider revokes the user's refresh tokens: other signed-in devices must sign in again.
        public func resetPassword(email: String, code: String, newPassword: String) async throws(SesameError) {
            let body = PasswordResetConfirmation(email: email, code: code, newPassword: newPassword)
            let (data, response) = try await client.http.send(
                try api.request("POST", "password", "reset", "confirm", json: body))
            try AccountAPI.check(data, response, what: "password reset")
        }

        // MARK: Signed in

        /// Changes the password; the current one is required (`POST /api/password`, signed in).
        public func changePassword(current: String, new: String, account: Account.ID? = nil) async throws(SesameError) {
            let body = PasswordChangeRequest(currentPassword: current, newPassword: new)
            let (data, response) = try await client.data(for: try api.request("POST", "password", json: body), account: account)
            try AccountAPI.check(data, response, what: "password change")
        }

        /// Starts an email change (`POST /api/email`, signed in): a code goes to the new address;
        /// finish with ``confirmEmailChange(code:account:)``.
        public func changeEmail(to newEmail: String, account: Account.ID? = nil) async throws(SesameError) {
            let body = EmailChangeRequest(newEmail: newEmail)
            let (data, response) = try await client.data(for: try api.request("POST", "email", json: body), account: account)
            try AccountAPI.check(data, response, what: "email change")
        }

        /// Confirms the email change with the code sent to the new address (`POST /api/email/confirm`).
        public func confirmEmailChange(code: String, account: Account.ID? = nil)
            async throws(SesameError) -> EmailVerificationStatus
        {
            let body = EmailChangeConfirmation(code: code)
            let (data, response) = try await client.data(
                for: try api.request("POST", "email", "confirm", json: body), account: account)
            return try AccountAPI.decode(EmailVerificationStatus.self, data, response, what: "email change")
        }

        /// Deletes the account at the provider (`DELETE /api/account`, signed in; the password
        /// confirms it): user, tokens, sessions, devices and second factors are gone. The local
        /// session is then removed and ``SesameEvent/signedOut(_:reason:)`` published.
        public func delete(password: String, account: Account.ID? = nil) async throws(SesameError) {
            let (session, _) = try await client.registry.session(for: account)
            let body = AccountDeletionRequest(password: password)
            let (data, response) = try await client.data(
                for: try api.request("DELETE", "account", json: body), account: session.account.id)
            try AccountAPI.check(data, response, what: "account deletion")
            await client.registry.remove(session.account.id)
            client.logger.info("account deleted; signed out", metadata: ["account": "\(session.account.id)"])
            client.broadcaster.publish(.signedOut(session.account, reason: .userInitiated))
        }

        /// The user's profile: the OpenID standard claims (`GET /api/profile`, signed in).
        public func profile(account: Account.ID? = nil) async throws(SesameError) -> StandardClaims {
            let (data, response) = try await client.data(for: api.request("GET", "profile"), account: account)
            return try AccountAPI.decode(StandardClaims.self, data, response, what: "profile")
        }

        /// Updates some profile claims (`PATCH /api/profile`, signed in); `nil` members stay
        /// unchanged, `""` clears. Returns the updated claims.
        ///
        /// - Throws: ``SesameError/Code-swift.struct/requestFailed`` with `error_code` 3000 and
        ///   ``SesameError/fieldErrors`` (e.g. `not_writable`, `invalid_format`).
        public func updateProfile(_ update: ProfileUpdate, account: Account.ID? = nil)
            async throws(SesameError) -> StandardClaims
        {
            let (data, response) = try await client.data(for: try api.request("PATCH", "profile", json: update), account: account)
            return try AccountAPI.decode(StandardClaims.self, data, response, what: "profile")
        }

        /// The devices registered to the user (`GET /api/devices`, signed in).
        public func devices(account: Account.ID? = nil) async throws(SesameError) -> [Device] {
            let (data, response) = try await client.data(for: api.request("GET", "devices"), account: account)
            return try AccountAPI.decode(DeviceList.self, data, response, what: "devices").devices
        }

        /// Registers a device, e.g. a watch (`POST /api/devices`, signed in). Registering the same
        /// `id` again updates its name and type.
        public func registerDevice(id: String, name: String, type: String? = nil, account: Account.ID? = nil)
            async throws(SesameError) -> Device
        {
            let body = DeviceRegistration(deviceID: id, name: name, type: type)
            let (data, response) = try await client.data(for: try api.request("POST", "devices", json: body), account: account)
            return try AccountAPI.decode(Device.self, data, response, what: "device registration")
        }

        /// Removes a device (`DELETE /api/devices/{id}`, signed in).
        ///
        /// - Throws: ``SesameError/Code-swift.struct/requestFailed`` with `error_code` 3005 (HTTP 404) when
        ///   no such device is registered.
        public func removeDevice(id: String, account: Account.ID? = nil) async throws(SesameError) {
            let (data, response) = try await client.data(for: api.request("DELETE", "devices", id), account: account)
            try AccountAPI.check(data, response, what: "device removal")
        }

        /// The provider identities linked to the account (`GET /api/identities`, docs/federation.md).
        public func linkedIdentities(account: Account.ID? = nil) async throws(SesameError) -> [LinkedIdentity] {
            let (data, response) = try await client.data(for: api.request("GET", "identities"), account: account)
            return try AccountAPI.decode(LinkedIdentityList.self, data, response, what: "identities").identities
        }

        /// Unlinks a provider's identity (`DELETE /api/identities/{provider}/{subject}`); refused with
        /// `last_sign_in_method` (3007) when it is the account's only way to sign in.
        public func unlinkIdentity(provider: String, subject: String, account: Account.ID? = nil) async throws(SesameError) {
            let (data, response) = try await client.data(
                for: api.request("DELETE", "identities", provider, subject), account: account)
            try AccountAPI.check(data, response, what: "identity unlinking")
        }
    }

    /// The user's account: sign-up, email, password, profile, devices, linked identities.
    public nonisolated var account: AccountManagement { AccountManagement(client: self) }
}

import Foundation

/// `POST /api/password/reset` body. Always answered `202 {}`, whether or not the address has an
/// account (no account enumeration).
public struct PasswordResetRequest: Codable, Sendable, Equatable {
    /// The account's email address; the `password_reset` code goes there. An address without an
    /// account gets the same `202` and no code; a malformed one is 400 `validation_failed`.
    public var email: String

    /// A reset request for `email`.
    public init(email: String) {
        self.email = email
    }
}

/// `POST /api/password/reset/confirm` body. Success revokes the user's refresh tokens.
public struct PasswordResetConfirmation: Codable, Sendable, Equatable {
    /// The address the reset code was sent to.
    public var email: String
    /// The 6-digit `password_reset` code from the email: single use, valid 15 minutes, 5 answers
    /// (wrong: 3004 `invalid_verification_code` with `remaining_attempts`).
    public var code: String
    /// The password to set (`new_password`), checked against the password policy: 400
    /// `weak_password` (3002) with `error_details` when it fails.
    public var newPassword: String

    /// A confirmation of the emailed `code` for `email` that sets `newPassword`.
    public init(email: String, code: String, newPassword: String) {
        self.email = email
        self.code = code
        self.newPassword = newPassword
    }

    enum CodingKeys: String, CodingKey {
        case email, code
        case newPassword = "new_password"
    }
}

/// `POST /api/password` body (bearer access token): the current password is required.
public struct PasswordChangeRequest: Codable, Sendable, Equatable {
    /// The account's password now (`current_password`). A wrong one is `invalid_credentials`
    /// (2000) and counts against the username's sign-in throttle (429 `too_many_attempts`, 2009).
    public var currentPassword: String
    /// The password to set (`new_password`), checked against the password policy (`weak_password`,
    /// 3002). The user's other sessions are signed out; the calling one stays.
    public var newPassword: String

    /// A change from `currentPassword` to `newPassword`.
    public init(currentPassword: String, newPassword: String) {
        self.currentPassword = currentPassword
        self.newPassword = newPassword
    }

    enum CodingKeys: String, CodingKey {
        case currentPassword = "current_password"
        case newPassword = "new_password"
    }
}

/// `POST /api/email` body (bearer access token): a code goes to the new address; the change
/// takes effect with `POST /api/email/confirm` (``MFACodeSubmission``-shaped `{"code"}`).
public struct EmailChangeRequest: Codable, Sendable, Equatable {
    /// The address to switch to (`new_email`); it receives the `email_change` code. 409
    /// `email_taken` (3001) when another account uses it.
    public var newEmail: String

    /// A request to move the account to `newEmail`.
    public init(newEmail: String) {
        self.newEmail = newEmail
    }

    enum CodingKeys: String, CodingKey {
        case newEmail = "new_email"
    }
}

/// `POST /api/email/confirm` body.
public struct EmailChangeConfirmation: Codable, Sendable, Equatable {
    /// The 6-digit code sent to the new address (single use, valid 15 minutes, 5 answers). When it
    /// is right, the address switches and is verified.
    public var code: String

    /// A confirmation with the emailed `code`.
    public init(code: String) {
        self.code = code
    }
}

/// `DELETE /api/account` body (bearer access token): the password confirms the deletion.
public struct AccountDeletionRequest: Codable, Sendable, Equatable {
    /// The account's password. A wrong one is `invalid_credentials` (2000) and counts against the
    /// username's sign-in throttle (429 `too_many_attempts`, 2009).
    public var password: String

    /// A deletion confirmed by `password`.
    public init(password: String) {
        self.password = password
    }
}

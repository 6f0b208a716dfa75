import Foundation

/// `POST /api/password/reset` body. Always answered `202 {}`, whether or not the address has an
/// account (no account enumeration).
public struct PasswordResetRequest: Codable, Sendable, Equatable {
    public var email: String

    public init(email: String) {
        self.email = email
    }
}

/// `POST /api/password/reset/confirm` body. Success revokes the user's refresh tokens.
public struct PasswordResetConfirmation: Codable, Sendable, Equatable {
    public var email: String
    public var code: String
    public var newPassword: String

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
    public var currentPassword: String
    public var newPassword: String

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
    public var newEmail: String

    public init(newEmail: String) {
        self.newEmail = newEmail
    }

    enum CodingKeys: String, CodingKey {
        case newEmail = "new_email"
    }
}

/// `POST /api/email/confirm` body.
public struct EmailChangeConfirmation: Codable, Sendable, Equatable {
    public var code: String

    public init(code: String) {
        self.code = code
    }
}

/// `DELETE /api/account` body (bearer access token): the password confirms the deletion.
public struct AccountDeletionRequest: Codable, Sendable, Equatable {
    public var password: String

    public init(password: String) {
        self.password = password
    }
}

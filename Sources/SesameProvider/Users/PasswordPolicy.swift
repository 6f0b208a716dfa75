import SesameStore
import Foundation
import SesameProtocol

/// The one password policy used by sign-up, password reset, change password and the admin CLI
/// (security-checklist: password storage and strength).
///
/// Rules: at least ``minimumLength`` characters, at most ``maximumBytes`` UTF-8 bytes (bounds the
/// scrypt input), not equal to the user's email or username (case-insensitive), and not one of a
/// small list of the most common passwords. Violations are reported as ``FieldError``s with the
/// wire codes `required`, `too_short`, `too_long` and `weak_password`.
public struct PasswordPolicy: Sendable {
    /// Minimum length in characters (grapheme clusters).
    public var minimumLength: Int
    /// Maximum length in UTF-8 bytes.
    public var maximumBytes: Int

    public init(minimumLength: Int = 8, maximumBytes: Int = 1024) {
        self.minimumLength = minimumLength
        self.maximumBytes = maximumBytes
    }

    /// Field errors for `password` submitted in request field `field`; empty when acceptable.
    /// - Parameters:
    ///   - email: the account's email, if known, which the password must not equal.
    ///   - username: the account's username, if known, which the password must not equal.
    public func violations(
        of password: String, field: String = "password", email: String? = nil, username: String? = nil
    ) -> [FieldError] {
        if password.isEmpty {
            return [FieldError(field: field, message: "Enter a password.", code: "required")]
        }
        if password.count < minimumLength {
            return [FieldError(
                field: field, message: "Use at least \(minimumLength) characters.", code: "too_short")]
        }
        if password.utf8.count > maximumBytes {
            return [FieldError(
                field: field, message: "Use at most \(maximumBytes) bytes.", code: "too_long")]
        }
        let lowered = password.lowercased()
        let identifiers = [email, username].compactMap { $0?.lowercased() }.filter { !$0.isEmpty }
        if identifiers.contains(lowered) {
            return [FieldError(
                field: field, message: "Choose a password that differs from your email and username.",
                code: "weak_password")]
        }
        if Self.commonPasswords.contains(lowered) {
            return [FieldError(
                field: field, message: "This password is too common; choose another one.",
                code: "weak_password")]
        }
        return []
    }

    /// A small list of the most common passwords (lower-cased) of at least 8 characters.
    package static let commonPasswords: Set<String> = [
        "password", "password1", "password123", "12345678", "123456789", "1234567890",
        "qwertyuiop", "qwerty123", "iloveyou", "sunshine", "princess", "football", "baseball",
        "welcome1", "abc12345", "11111111", "00000000", "passw0rd", "trustno1", "superman",
        "1q2w3e4r", "letmein1", "dragon12", "monkey123", "starwars", "whatever", "computer",
        "michelle", "jennifer", "liverpool", "changeme", "administrator", "qwertyui", "asdfghjk",
    ]
}

import SesameStore
import Foundation

/// Rules for a user an administrator creates (``ServerAdmin``, the seed file): the same ones
/// sign-up applies (``AccountValidation``), with the reason phrased for a command line.
public enum UserValidation {
    /// Checks `password` against the one ``PasswordPolicy`` (sign-up, reset and change use it
    /// too): its length, and that it is neither a common password nor the user's email or
    /// username.
    public static func checkPassword(
        _ password: String, email: String? = nil, username: String? = nil, policy: PasswordPolicy = PasswordPolicy()
    ) throws(ValidationIssue) {
        guard let violation = policy.violations(of: password, email: email, username: username).first else { return }
        let reason =
            switch violation.code {
            case "too_short": "is too short; use at least \(policy.minimumLength) characters"
            case "too_long": "is too long; use at most \(policy.maximumBytes) bytes"
            case "required": "is empty; set a password of at least \(policy.minimumLength) characters"
            default: "is too weak (\(violation.message.prefix(1).lowercased() + violation.message.dropFirst()))"
            }
        throw ValidationIssue(field: "password", reason: reason)
    }

    public static func checkUsername(_ username: String) throws(ValidationIssue) {
        guard !username.isEmpty, username.count <= 64,
            !username.unicodeScalars.contains(where: { CharacterSet.whitespacesAndNewlines.contains($0) || CharacterSet.controlCharacters.contains($0) })
        else {
            throw ValidationIssue(
                field: "username", reason: "\"\(username)\" is not valid; use 1-64 characters without spaces")
        }
    }

    public static func checkEmail(_ email: String) throws(ValidationIssue) {
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        // The domain: dot-separated labels of letters, digits and inner hyphens (RFC 1035 §2.3.1,
        // with Unicode letters for internationalized names).
        let labels = parts.count == 2 ? parts[1].split(separator: ".", omittingEmptySubsequences: false) : []
        let domainIsValid =
            labels.count >= 2
            && labels.allSatisfy { label in
                !label.isEmpty && label.first != "-" && label.last != "-"
                    && label.unicodeScalars.allSatisfy { CharacterSet.alphanumerics.contains($0) || $0 == "-" }
            }
        guard parts.count == 2, !parts[0].isEmpty, domainIsValid, email.count <= 254,
            !email.unicodeScalars.contains(where: { CharacterSet.whitespacesAndNewlines.contains($0) })
        else {
            throw ValidationIssue(
                field: "email", reason: "\"\(email)\" is not an email address; use the form name@example.com")
        }
    }
}

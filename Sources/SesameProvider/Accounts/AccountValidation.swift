import Foundation
import SesameProtocol
import SesameStore

/// One invalid request field before localization: the wire `error_details[].code`
/// (``FieldErrorCode``) and the `{name}` arguments of its `field.<code>` message.
package struct FieldViolation: Sendable, Equatable {
    package var field: String
    package var code: String
    package var arguments: [String: String] = [:]

    package init(field: String, code: String, arguments: [String: String] = [:]) {
        self.field = field
        self.code = code
        self.arguments = arguments
    }

    package static func required(_ field: String) -> FieldViolation {
        FieldViolation(field: field, code: FieldErrorCode.required)
    }

    package static func invalidFormat(_ field: String) -> FieldViolation {
        FieldViolation(field: field, code: FieldErrorCode.invalidFormat)
    }

    package static func tooLong(_ field: String, max: Int) -> FieldViolation {
        FieldViolation(field: field, code: FieldErrorCode.tooLong, arguments: ["max": String(max)])
    }
}

/// Field checks shared by the account operations (`error_details`, docs/first-party-and-accounts.md), and
/// the one way they turn into a 400 ``ProviderFailure`` with messages in the caller's languages.
package struct AccountValidation: Sendable {
    package let localizer: any Localizer
    package let locales: [String]
    package var passwordPolicy = PasswordPolicy()

    package init(localizer: any Localizer, locales: [String]) {
        self.localizer = localizer
        self.locales = locales
    }

    /// An email address (the admin CLI's rule: `name@domain.tld`, ≤ 254 characters).
    package func email(_ value: String, field: String) -> FieldViolation? {
        if value.isEmpty { return .required(field) }
        do {
            try UserValidation.checkEmail(value)
            return nil
        } catch {
            return value.count > 254 ? .tooLong(field, max: 254) : .invalidFormat(field)
        }
    }

    /// A login name: 1–64 characters without spaces.
    package func username(_ value: String, field: String) -> FieldViolation? {
        if value.isEmpty { return .required(field) }
        do {
            try UserValidation.checkUsername(value)
            return nil
        } catch {
            return value.count > 64 ? .tooLong(field, max: 64) : .invalidFormat(field)
        }
    }

    /// ``PasswordPolicy`` violations of `password` submitted as `field`.
    package func password(_ password: String, field: String, email: String?, username: String?) -> [FieldViolation] {
        passwordPolicy.violations(of: password, field: field, email: email, username: username).map {
            FieldViolation(
                field: $0.field, code: $0.code,
                arguments: [
                    "min": String(passwordPolicy.minimumLength), "max": String(passwordPolicy.maximumBytes),
                ])
        }
    }

    /// `error_details` with messages in the caller's language.
    package func details(_ violations: [FieldViolation]) -> [FieldError] {
        violations.map {
            localizer.fieldError(field: $0.field, code: $0.code, locales: locales, arguments: $0.arguments)
        }
    }

    /// 400 with `error_details`: `weak_password` (3002) when only the password policy failed,
    /// else `validation_failed` (3000).
    package func failure(_ violations: [FieldViolation], description: String? = nil) -> ProviderFailure {
        let passwordCodes: Set<String> = [
            FieldErrorCode.tooShort, FieldErrorCode.tooLong, FieldErrorCode.weakPassword,
        ]
        let onlyPassword = !violations.isEmpty && violations.allSatisfy {
            passwordCodes.contains($0.code) && $0.field.hasSuffix("password")
        }
        return ProviderFailure(onlyPassword ? .weakPassword : .validationFailed, description, details: details(violations))
    }

    /// 409 `email_taken` (3001) with a `taken` detail on `field`.
    package func emailTaken(field: String) -> ProviderFailure {
        ProviderFailure(
            .emailTaken, "An account with this email address already exists.",
            details: details([FieldViolation(field: field, code: FieldErrorCode.taken)]))
    }

    /// `not_writable` for each read-only claim member present in the raw JSON body.
    package static func readOnlyMembers(in members: Set<String>, allowing allowed: Set<String> = []) -> [FieldViolation] {
        ProfileUpdate.readOnlyClaims.subtracting(allowed).intersection(members).sorted().map {
            FieldViolation(field: $0, code: FieldErrorCode.notWritable)
        }
    }
}

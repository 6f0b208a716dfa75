import Foundation
import Hummingbird
import SesameProtocol

/// One invalid request field before localization: the wire `error_details[].code`
/// (``FieldErrorCode``) and the `{name}` arguments of its `field.<code>` message.
struct FieldViolation: Sendable, Equatable {
    var field: String
    var code: String
    var arguments: [String: String] = [:]

    static func required(_ field: String) -> FieldViolation {
        FieldViolation(field: field, code: FieldErrorCode.required)
    }

    static func invalidFormat(_ field: String) -> FieldViolation {
        FieldViolation(field: field, code: FieldErrorCode.invalidFormat)
    }

    static func tooLong(_ field: String, max: Int) -> FieldViolation {
        FieldViolation(field: field, code: FieldErrorCode.tooLong, arguments: ["max": String(max)])
    }
}

/// Field checks shared by the account endpoints (`error_details`, docs/first-party-and-accounts.md), and the
/// one way they turn into a 400 ``EndpointFailure`` with localized messages.
struct AccountValidation: Sendable {
    let localizer: any Localizer
    let locales: [String]
    var passwordPolicy = PasswordPolicy()

    /// Validation in the caller's languages: the account's `locale` claim (when known), then
    /// `Accept-Language`.
    init(request: Request, services: AccountServices, user: UserRecord? = nil) {
        self.localizer = services.localizer
        self.locales = Self.locales(request: request, preferred: user?.claims.locale)
    }

    init(localizer: any Localizer, locales: [String]) {
        self.localizer = localizer
        self.locales = locales
    }

    /// `preferred` (e.g. a `locale` claim) first, then `Accept-Language`.
    static func locales(request: Request, preferred: String?) -> [String] {
        [preferred].compactMap { $0 }.filter { !$0.isEmpty } + LocalePreference.from(request: request)
    }

    /// An email address (the admin CLI's rule: `name@domain.tld`, ≤ 254 characters).
    func email(_ value: String, field: String) -> FieldViolation? {
        if value.isEmpty { return .required(field) }
        do {
            try UserValidation.checkEmail(value)
            return nil
        } catch {
            return value.count > 254 ? .tooLong(field, max: 254) : .invalidFormat(field)
        }
    }

    /// A login name: 1–64 characters without spaces.
    func username(_ value: String, field: String) -> FieldViolation? {
        if value.isEmpty { return .required(field) }
        do {
            try UserValidation.checkUsername(value)
            return nil
        } catch {
            return value.count > 64 ? .tooLong(field, max: 64) : .invalidFormat(field)
        }
    }

    /// ``PasswordPolicy`` violations of `password` submitted as `field`.
    func password(_ password: String, field: String, email: String?, username: String?) -> [FieldViolation] {
        passwordPolicy.violations(of: password, field: field, email: email, username: username).map {
            FieldViolation(
                field: $0.field, code: $0.code,
                arguments: [
                    "min": String(passwordPolicy.minimumLength), "max": String(passwordPolicy.maximumBytes),
                ])
        }
    }

    /// `error_details` with messages in the caller's language.
    func details(_ violations: [FieldViolation]) -> [FieldError] {
        violations.map {
            localizer.fieldError(field: $0.field, code: $0.code, locales: locales, arguments: $0.arguments)
        }
    }

    /// 400 with `error_details`: `weak_password` (3002) when only the password policy failed,
    /// else `validation_failed` (3000).
    func failure(_ violations: [FieldViolation], description: String? = nil) -> EndpointFailure {
        let passwordCodes: Set<String> = [
            FieldErrorCode.tooShort, FieldErrorCode.tooLong, FieldErrorCode.weakPassword,
        ]
        let onlyPassword = !violations.isEmpty && violations.allSatisfy {
            passwordCodes.contains($0.code) && $0.field.hasSuffix("password")
        }
        return EndpointFailure(
            onlyPassword ? .weakPassword : .validationFailed, description, details: details(violations))
    }

    /// 409 `email_taken` (3001) with a `taken` detail on `field`.
    func emailTaken(field: String) -> EndpointFailure {
        EndpointFailure(
            .emailTaken, "An account with this email address already exists.",
            details: details([FieldViolation(field: field, code: FieldErrorCode.taken)]))
    }

    /// `not_writable` for each read-only claim member present in the raw JSON body.
    static func readOnlyMembers(in members: Set<String>, allowing allowed: Set<String> = []) -> [FieldViolation] {
        ProfileUpdate.readOnlyClaims.subtracting(allowed).intersection(members).sorted().map {
            FieldViolation(field: $0, code: FieldErrorCode.notWritable)
        }
    }
}

import SesameProtocol

/// Looks up user-facing strings (login page, error pages, `error_user_msg`, messages) by key.
///
/// The identity core writes to people in their language (the codes it mails and texts, the
/// per-field messages of a refused request) through this protocol; the server implements it
/// with its string tables (`StringTableLocalizer`, 19 locales). Keys are the
/// ``APIErrorCode/messageKey`` values (`error.invalid_grant`), page keys (`login.title`),
/// message keys (`message.mfa_code.body`) and field keys (`field.too_short`).
public protocol Localizer: Sendable {
    /// The string for `key` in the first of `locales` that has it, else English, else the key;
    /// its `{name}` placeholders replaced from `arguments`, and where the entry has plural forms,
    /// the form for the count in the argument it names (CLDR rules).
    func string(_ key: String, locales: [String], arguments: [String: String]) -> String
    /// The locale tag that would be used for `locales` (for `<html lang>`).
    func resolvedLocale(for locales: [String]) -> String
}

extension Localizer {
    /// The string for `key`, placeholders left as they are.
    public func string(_ key: String, locales: [String]) -> String {
        string(key, locales: locales, arguments: [:])
    }

    /// An `error_details` entry whose message is the `field.<code>` string in the
    /// best of `locales`, with `{name}` placeholders replaced from `arguments`
    /// (e.g. `["min": "8"]` for `too_short`).
    package func fieldError(
        field: String, code: String, locales: [String], arguments: [String: String] = [:]
    ) -> FieldError {
        FieldError(field: field, message: string("field." + code, locales: locales, arguments: arguments), code: code)
    }

    /// `errors` with their messages localized by code (their English text is replaced).
    package func localized(
        _ errors: [FieldError], locales: [String], arguments: [String: String] = [:]
    ) -> [FieldError] {
        errors.map { fieldError(field: $0.field, code: $0.code, locales: locales, arguments: arguments) }
    }
}

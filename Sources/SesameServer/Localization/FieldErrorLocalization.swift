import SesameProtocol

extension Localizer {
    /// An `error_details` entry whose message is the `field.<code>` string in the
    /// best of `locales`, with `{name}` placeholders replaced from `arguments`
    /// (e.g. `["min": "8"]` for `too_short`).
    func fieldError(
        field: String, code: String, locales: [String], arguments: [String: String] = [:]
    ) -> FieldError {
        FieldError(field: field, message: string("field." + code, locales: locales, arguments: arguments), code: code)
    }

    /// `errors` with their messages localized by code (their English text is replaced).
    func localized(
        _ errors: [FieldError], locales: [String], arguments: [String: String] = [:]
    ) -> [FieldError] {
        errors.map { fieldError(field: $0.field, code: $0.code, locales: locales, arguments: arguments) }
    }
}

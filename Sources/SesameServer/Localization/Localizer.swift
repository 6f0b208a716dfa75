import Hummingbird

/// Looks up user-facing strings (login page, error pages, `error_user_msg`, messages) by key.
///
/// 19 locales (``StringTables/tags``). Keys are the ``APIErrorCode/messageKey``
/// values (`error.invalid_grant`) and page keys (`login.title`).
public protocol Localizer: Sendable {
    /// The string for `key` in the first of `locales` that has it, else English, else the key.
    func string(_ key: String, locales: [String]) -> String
    /// The locale tag that would be used for `locales` (for `<html lang>`).
    func resolvedLocale(for locales: [String]) -> String
}

/// A ``Localizer`` over in-memory string tables keyed by BCP 47 tag. Resolution, for each
/// preferred tag in order: the canonical tag (``LocalePreference/canonical(_:)``), then its
/// language; if none matches, English. A key missing from the chosen table falls back to
/// English. The default tables are ``StringTables/served`` (the main tables plus the logout
/// pages' ``LogoutStrings``).
public struct StringTableLocalizer: Localizer {
    private let tables: [String: [String: String]]
    private let fallback: String

    public init(tables: [String: [String: String]] = StringTables.served, fallback: String = "en") {
        self.tables = tables
        self.fallback = fallback
    }

    public func string(_ key: String, locales: [String]) -> String {
        let locale = resolvedLocale(for: locales)
        return tables[locale]?[key] ?? tables[fallback]?[key] ?? key
    }

    public func resolvedLocale(for locales: [String]) -> String {
        for tag in locales {
            let normalized = LocalePreference.canonical(tag)
            if tables[normalized] != nil { return normalized }
            if let language = normalized.split(separator: "-").first, tables[String(language)] != nil {
                return String(language)
            }
        }
        return fallback
    }
}

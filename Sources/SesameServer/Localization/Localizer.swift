import Hummingbird

/// Looks up user-facing strings (login page, error pages, `error_user_msg`, messages) by key.
///
/// 19 locales (``StringTables/tags``). Keys are the ``APIErrorCode/messageKey``
/// values (`error.invalid_grant`) and page keys (`login.title`).
public protocol Localizer: Sendable {
    /// The string for `key` in the first of `locales` that has it, else English, else the key;
    /// its `{name}` placeholders replaced from `arguments`, and where the entry has plural forms,
    /// the form for the count in the argument it names (CLDR rules, ``PluralRules``).
    func string(_ key: String, locales: [String], arguments: [String: String]) -> String
    /// The locale tag that would be used for `locales` (for `<html lang>`).
    func resolvedLocale(for locales: [String]) -> String
}

extension Localizer {
    /// The string for `key`, placeholders left as they are.
    public func string(_ key: String, locales: [String]) -> String {
        string(key, locales: locales, arguments: [:])
    }
}

/// A ``Localizer`` over string tables keyed by BCP 47 tag. Resolution, for each
/// preferred tag in order: the canonical tag (``LocalePreference/canonical(_:)``), then its
/// language; if none matches, English. A key missing from the chosen table falls back to
/// English. The default tables are the shipped ones (``StringTables/catalog``).
public struct StringTableLocalizer: Localizer {
    private let tables: [String: [String: LocalizedText]]
    private let fallback: String

    public init(catalog: [String: [String: LocalizedText]] = StringTables.catalog, fallback: String = "en") {
        self.tables = catalog
        self.fallback = fallback
    }

    /// Plain tables (no plural forms), e.g. for tests.
    public init(tables: [String: [String: String]], fallback: String = "en") {
        self.init(catalog: tables.mapValues { $0.mapValues(LocalizedText.init) }, fallback: fallback)
    }

    public func string(_ key: String, locales: [String], arguments: [String: String]) -> String {
        let locale = resolvedLocale(for: locales)
        if let entry = tables[locale]?[key] { return entry.render(locale: locale, arguments: arguments) }
        if let entry = tables[fallback]?[key] { return entry.render(locale: fallback, arguments: arguments) }
        return key
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

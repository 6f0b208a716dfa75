import Hummingbird

/// A ``Localizer`` over string tables keyed by BCP 47 tag. Resolution, for each
/// preferred tag in order: the canonical tag (``LocalePreference/canonical(_:)``), then its
/// language; if none matches, English. A key missing from the chosen table falls back to
/// English. The default tables are the shipped ones, each read when first asked for
/// (``StringTables/table(_:)``).
public struct StringTableLocalizer: Localizer {
    /// Given tables, or `nil`: the shipped ones, read as they are asked for (``StringTables``).
    private let tables: [String: [String: LocalizedText]]?
    private let fallback: String

    /// The shipped tables (``StringTables/table(_:)``).
    public init(fallback: String = "en") {
        self.tables = nil
        self.fallback = fallback
    }

    public init(catalog: [String: [String: LocalizedText]], fallback: String = "en") {
        self.tables = catalog
        self.fallback = fallback
    }

    /// Plain tables (no plural forms), e.g. for tests.
    public init(tables: [String: [String: String]], fallback: String = "en") {
        self.init(catalog: tables.mapValues { $0.mapValues(LocalizedText.init) }, fallback: fallback)
    }

    public func string(_ key: String, locales: [String], arguments: [String: String]) -> String {
        let locale = resolvedLocale(for: locales)
        if let entry = table(locale)?[key] { return entry.render(locale: locale, arguments: arguments) }
        if let entry = table(fallback)?[key] { return entry.render(locale: fallback, arguments: arguments) }
        return key
    }

    public func resolvedLocale(for locales: [String]) -> String {
        for tag in locales {
            let normalized = LocalePreference.canonical(tag)
            if has(normalized) { return normalized }
            if let language = normalized.split(separator: "-").first, has(String(language)) {
                return String(language)
            }
        }
        return fallback
    }

    private func table(_ tag: String) -> [String: LocalizedText]? {
        if let tables { return tables[tag] }
        return StringTables.table(tag)
    }

    private func has(_ tag: String) -> Bool {
        if let tables { return tables[tag] != nil }
        return StringTables.supported.contains(tag)
    }
}

import Hummingbird

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

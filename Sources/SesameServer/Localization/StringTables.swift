import Foundation

/// The shipped strings: one JSON file per locale in `Strings/` (a resource of this module),
/// keyed by the BCP 47 tag it is served for. `en.json` is the reference: it defines the keys,
/// says what each is for (`comment`), and lists the keys that share another's sentence
/// (`same_as`); the other files translate its texts, with the same `{name}` placeholders and
/// their own plural forms where a count appears.
///
/// ``StringTableLocalizer``'s default uses these; discovery advertises ``tags`` as
/// `ui_locales_supported`. Regional and script variants reach a table through
/// ``LocalePreference/canonical(_:)`` (zh-CN, zh-SG → `zh-Hans`; zh-TW, zh-HK, zh-MO → `zh-Hant`;
/// no, nn → `nb`) or the language fallback (pt-BR → `pt`, de-AT → `de`).
public enum StringTables {
    /// The supported locale tags.
    public static let tags: [String] = [
        "ar", "da", "de", "en", "es", "fi", "fr", "hu", "it", "ja", "ko", "nb", "nl", "pt", "ru", "sk",
        "sv", "zh-Hans", "zh-Hant",
    ]

    /// Every locale's entries as its file has them (aliases unresolved).
    public static let files: [String: [String: LocalizedText]] = {
        var files: [String: [String: LocalizedText]] = [:]
        for tag in tags {
            do {
                files[tag] = try load(tag)
            } catch {
                fatalError("Sesame's string resource Strings/\(tag).json cannot be read (\(error)); the SesameServer resource bundle must ship next to the executable.")
            }
        }
        return files
    }()

    /// Every locale's entries with each `same_as` key resolved to the entry it names (in that
    /// locale, else English).
    public static let catalog: [String: [String: LocalizedText]] = {
        let english = files["en"] ?? [:]
        return files.mapValues { table in
            var resolved = table
            for (key, entry) in english {
                guard let target = entry.sameAs else { continue }
                resolved[key] = table[target] ?? english[target]
            }
            return resolved
        }
    }()

    /// Every locale's texts (`other` forms), keyed like ``catalog``.
    public static let all: [String: [String: String]] = catalog.mapValues { $0.mapValues(\.text) }

    /// The English texts: the reference the other locales translate.
    public static var english: [String: String] { all["en"] ?? [:] }

    static func load(_ tag: String) throws -> [String: LocalizedText] {
        guard let url = Bundle.module.url(forResource: tag, withExtension: "json", subdirectory: "Strings") else {
            throw CocoaError(.fileNoSuchFile)
        }
        return try JSONDecoder().decode([String: LocalizedText].self, from: Data(contentsOf: url))
    }
}

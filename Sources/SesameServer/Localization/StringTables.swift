import Foundation
import SesameProtocol

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
///
/// A locale's file is read the first time a page or message asks for it, and kept: a server
/// whose users read English holds one table, not nineteen (issue #50: all of them, read at
/// start, were about a third of an idle server's heap).
public enum StringTables {
    /// The supported locale tags.
    public static let tags: [String] = [
        "ar", "da", "de", "en", "es", "fi", "fr", "hu", "it", "ja", "ko", "nb", "nl", "pt", "ru", "sk",
        "sv", "zh-Hans", "zh-Hant",
    ]

    /// ``tags`` as a set, for lookups.
    static let supported = Set(tags)

    /// The tables of other locales read so far, by tag.
    private static let loaded = LockedState<[String: [String: LocalizedText]]>([:])

    /// English, read once: the table every other locale falls back to, resolved within itself
    /// and without comments, and its `same_as` keys (key → the key whose text it shares), which
    /// every other locale resolves the same way.
    private static let reference = Result { () throws(MissingStrings) -> (table: [String: LocalizedText], aliases: [String: String]) in
        let english = try StringTables.file("en")
        let aliases = english.compactMapValues(\.sameAs)
        var table = english.mapValues(\.withoutComment)
        for (key, target) in aliases { table[key] = table[target] }
        return (table, aliases)
    }

    /// A locale's entries with each `same_as` key resolved to the entry it names (in that locale,
    /// else English) and without translators' comments; `nil` for an unsupported tag, or for a
    /// file that cannot be read (the localizer then answers in English; ``requireResources()``
    /// checked at start that every file is there and English reads).
    public static func table(_ tag: String) -> [String: LocalizedText]? {
        guard supported.contains(tag), let english = try? reference.get() else { return nil }
        if tag == "en" { return english.table }
        if let table = loaded.withLock({ $0[tag] }) { return table }
        guard var table = try? file(tag).mapValues(\.withoutComment) else { return nil }
        for (key, target) in english.aliases {
            table[key] = table[target] ?? english.table[target]
        }
        let resolved = table
        return loaded.withLock { loaded in
            if let earlier = loaded[tag] { return earlier }
            loaded[tag] = resolved
            return resolved
        }
    }

    /// A locale's entries as its file has them (aliases unresolved, comments kept).
    public static func file(_ tag: String) throws(MissingStrings) -> [String: LocalizedText] {
        guard let url = url(tag) else { throw MissingStrings(tag: tag, reason: "not in the resource bundle") }
        do {
            return try JSONDecoder().decode([String: LocalizedText].self, from: Data(contentsOf: url))
        } catch {
            throw MissingStrings(tag: tag, reason: "\(error)")
        }
    }

    /// Checked when the server starts, so that a deployment without the resource bundle fails
    /// there and not at a user's first page: every locale's file is present, and English (the
    /// fallback of every other) reads.
    public static func requireResources() throws(MissingStrings) {
        for tag in tags where url(tag) == nil {
            throw MissingStrings(tag: tag, reason: "not in the resource bundle")
        }
        _ = try reference.get()
    }

    private static func url(_ tag: String) -> URL? {
        Bundle.module.url(forResource: tag, withExtension: "json", subdirectory: "Strings")
    }

    /// A string file the server cannot use.
    public struct MissingStrings: Error, CustomStringConvertible {
        public var tag: String
        public var reason: String
        public var description: String {
            "Sesame's string resource Strings/\(tag).json cannot be read (\(reason)); the SesameServer resource bundle must ship next to the executable."
        }
    }

    /// Every locale's resolved entries, read on first use (for tests and tools: the server asks
    /// ``table(_:)`` per locale, and never touches this).
    public static let catalog: [String: [String: LocalizedText]] = Dictionary(
        uniqueKeysWithValues: tags.map { ($0, table($0) ?? [:]) })

    /// Every locale's texts (`other` forms), keyed like ``catalog``.
    public static let all: [String: [String: String]] = catalog.mapValues { $0.mapValues(\.text) }

    /// The English texts: the reference the other locales translate.
    public static var english: [String: String] { all["en"] ?? [:] }
}

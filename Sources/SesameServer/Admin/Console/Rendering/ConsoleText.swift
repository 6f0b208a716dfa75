import Foundation

/// The admin console's strings (issue #47): data, as the hosted pages' are, one JSON file per
/// locale in `ConsoleStrings/` (a resource of this module), `{name}` placeholders filled by
/// ``string(_:_:)``. English is the reference and the fallback; a locale is added by adding its
/// file and its tag to ``tags``.
struct ConsoleText: Sendable {
    /// The locales the console has strings for.
    static let tags = ["en"]

    private let tables: [String: [String: String]]
    /// The locale this request's texts come from.
    let locale: String

    /// The texts for the first of `locales` the console has (else English).
    init(locales: [String]) {
        tables = Self.tables
        locale = locales.lazy.map { $0.lowercased() }.compactMap { tag in
            Self.tags.first { tag == $0.lowercased() || tag.hasPrefix($0.lowercased() + "-") }
        }.first ?? "en"
    }

    /// The text of `key`, with `{name}` replaced by each argument; the key itself when no table
    /// has it (a test lists every key a template uses).
    func string(_ key: String, _ arguments: [String: String] = [:]) -> String {
        var text = tables[locale]?[key] ?? tables["en"]?[key] ?? key
        for (name, value) in arguments { text = text.replacingOccurrences(of: "{\(name)}", with: value) }
        return text
    }

    /// Every locale's table, read once.
    static let tables: [String: [String: String]] = {
        var tables: [String: [String: String]] = [:]
        for tag in tags {
            guard let url = Bundle.module.url(forResource: tag, withExtension: "json", subdirectory: "ConsoleStrings"),
                let data = try? Data(contentsOf: url),
                let table = try? JSONDecoder().decode([String: String].self, from: data)
            else {
                fatalError("Sesame's console strings ConsoleStrings/\(tag).json cannot be read; the SesameServer resource bundle must ship next to the executable.")
            }
            tables[tag] = table
        }
        return tables
    }()
}

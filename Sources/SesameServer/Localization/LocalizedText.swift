/// One entry of a locale's string file (`Strings/<tag>.json`): a text, or plural forms chosen
/// by the count in one named argument, or (English file only) a reference to another key whose
/// text it shares. The English file also carries a `comment` per key for translators.
///
/// Placeholders are `{name}`, replaced from the arguments the caller passes.
public struct LocalizedText: Sendable, Equatable, Decodable {
    /// The `other` form (every plain text is one); `nil` only for a `same_as` entry.
    private var other: String?
    /// The forms besides `other`, `nil` for a plain text: most entries have none, and a table
    /// holds thousands of entries (no dictionary each).
    private var plurals: [PluralCategory: String]?

    /// The forms by CLDR category; a plain text is its `other` form.
    public var forms: [PluralCategory: String] {
        get {
            var forms = plurals ?? [:]
            forms[.other] = other
            return forms
        }
        set {
            other = newValue[.other]
            var rest = newValue
            rest[.other] = nil
            plurals = rest.isEmpty ? nil : rest
        }
    }
    /// The argument whose value picks the plural form (`min` in "At least {min} characters").
    public var countArgument: String?
    /// The key whose text this entry uses (`same_as`), so a sentence is translated once.
    public var sameAs: String?
    /// What the text is for, for translators.
    public var comment: String?

    /// The text for `other`, the form every entry has.
    public var text: String { other ?? "" }

    public init(_ text: String) {
        other = text
    }

    /// This entry without its translators' comment (what a server keeps).
    var withoutComment: LocalizedText {
        var entry = self
        entry.comment = nil
        return entry
    }

    private enum Keys: String, CodingKey {
        case text, count, comment
        case sameAs = "same_as"
    }

    private struct PluralKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    private init(forms: [PluralCategory: String], countArgument: String?, sameAs: String?, comment: String?) {
        self.countArgument = countArgument
        self.sameAs = sameAs
        self.comment = comment
        self.forms = forms
    }

    public init(from decoder: any Decoder) throws {
        if let text = try? decoder.singleValueContainer().decode(String.self) {
            self.init(text)
            return
        }
        let object = try decoder.container(keyedBy: Keys.self)
        var forms: [PluralCategory: String] = [:]
        if let text = try object.decodeIfPresent(String.self, forKey: .text) { forms[.other] = text }
        let plural = try decoder.container(keyedBy: PluralKey.self)
        for category in PluralCategory.allCases {
            if let form = try plural.decodeIfPresent(String.self, forKey: PluralKey(stringValue: category.rawValue)) {
                forms[category] = form
            }
        }
        let sameAs = try object.decodeIfPresent(String.self, forKey: .sameAs)
        if sameAs == nil && forms[.other] == nil {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "an entry needs `text`, `other` or `same_as`"))
        }
        self.init(
            forms: forms, countArgument: try object.decodeIfPresent(String.self, forKey: .count), sameAs: sameAs,
            comment: try object.decodeIfPresent(String.self, forKey: .comment))
    }

    /// The form for `arguments` in `locale`, with every `{name}` replaced.
    func render(locale: String, arguments: [String: String]) -> String {
        var form = text
        if let countArgument, let count = arguments[countArgument].flatMap({ Int($0) }) {
            let category = PluralRules.category(of: count, locale: locale)
            form = (category == .other ? other : plurals?[category]) ?? text
        }
        for (name, value) in arguments {
            form = form.replacingOccurrences(of: "{\(name)}", with: value)
        }
        return form
    }
}

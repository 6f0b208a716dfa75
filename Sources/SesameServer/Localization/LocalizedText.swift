/// One entry of a locale's string file (`Strings/<tag>.json`): a text, or plural forms chosen
/// by the count in one named argument, or (English file only) a reference to another key whose
/// text it shares. The English file also carries a `comment` per key for translators.
///
/// Placeholders are `{name}`, replaced from the arguments the caller passes.
public struct LocalizedText: Sendable, Equatable, Decodable {
    /// The forms by CLDR category; a plain text is its `other` form.
    public var forms: [PluralCategory: String]
    /// The argument whose value picks the plural form (`min` in "At least {min} characters").
    public var countArgument: String?
    /// The key whose text this entry uses (`same_as`), so a sentence is translated once.
    public var sameAs: String?
    /// What the text is for, for translators.
    public var comment: String?

    /// The text for `other`, the form every entry has.
    public var text: String { forms[.other] ?? "" }

    public init(_ text: String) {
        forms = [.other: text]
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
        self.forms = forms
        self.countArgument = countArgument
        self.sameAs = sameAs
        self.comment = comment
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
            form = forms[PluralRules.category(of: count, locale: locale)] ?? text
        }
        for (name, value) in arguments {
            form = form.replacingOccurrences(of: "{\(name)}", with: value)
        }
        return form
    }
}

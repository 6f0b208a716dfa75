import Foundation
import SesameProtocol
import Testing
@testable import SesameServer

/// Every key of the English table is translated in every locale, with the same
/// placeholders, and nothing else is in the tables.
@Suite("String tables are complete in every locale")
struct StringTableCompletenessTests {
    static let english = StringTables.english

    @Test("the registry holds exactly the 19 supported locales")
    func registryMatchesSpec() {
        #expect(StringTables.tags == SpecLocales.tags)
        #expect(Set(StringTables.all.keys) == Set(SpecLocales.tags))
        #expect(StringTables.all["en"] == Self.english)
    }

    @Test("English has an error_user_msg for every APIErrorCode, none of them empty")
    func englishCoversEveryErrorCode() {
        for code in APIErrorCode.allCases {
            let message = Self.english[code.messageKey]
            #expect(message?.isEmpty == false, "missing \(code.messageKey)")
        }
    }

    @Test("same key set as English: nothing missing, nothing extra", arguments: SpecLocales.nonEnglish)
    func sameKeys(tag: String) throws {
        let table = try #require(StringTables.all[tag])
        let missing = Set(Self.english.keys).subtracting(table.keys).sorted()
        let extra = Set(table.keys).subtracting(Self.english.keys).sorted()
        #expect(missing.isEmpty, "\(tag) lacks \(missing)")
        #expect(extra.isEmpty, "\(tag) has keys English does not: \(extra)")
        for code in APIErrorCode.allCases {
            #expect(table[code.messageKey] != nil, "\(tag) lacks \(code.messageKey)")
        }
    }

    @Test("no empty value, and the same placeholders as English", arguments: SpecLocales.nonEnglish)
    func valuesAndPlaceholders(tag: String) throws {
        let table = try #require(StringTables.all[tag])
        for (key, value) in table {
            #expect(!value.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, "\(tag) \(key) is empty")
            let expected = Self.placeholders(in: Self.english[key] ?? "")
            #expect(Self.placeholders(in: value) == expected, "\(tag) \(key): placeholders differ from English")
        }
    }

    @Test("translated, not copied: at least 95% of values differ from English", arguments: SpecLocales.nonEnglish)
    func translated(tag: String) throws {
        let table = try #require(StringTables.all[tag])
        let same = table.filter { Self.english[$0.key] == $0.value }.map(\.key).sorted()
        #expect(
            Double(same.count) <= 0.05 * Double(Self.english.count),
            "\(tag) keeps the English text for \(same)")
    }

    @Test("the placeholder scanner finds what the checks rely on")
    func placeholderScanner() {
        #expect(Self.placeholders(in: "Sign in to {client} with {code}, {code} and {min}") == ["{client}", "{code}", "{code}", "{min}"])
        #expect(Self.placeholders(in: "plain").isEmpty)
    }

    /// `%@` and `{name}` placeholders, sorted (a multiset: counts must match too).
    static func placeholders(in text: String) -> [String] {
        var found: [String] = []
        var rest = Substring(text)
        while let match = rest.firstMatch(of: /%@|\{[a-z_]+\}/) {
            found.append(String(match.output))
            rest = rest[match.range.upperBound...]
        }
        return found.sorted()
    }
}

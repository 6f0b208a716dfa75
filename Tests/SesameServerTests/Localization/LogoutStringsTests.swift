import Foundation
import Testing
@testable import SesameServer

/// The logout pages' strings (``LogoutStrings``) meet the SPEC §1.11 rules of the main tables
/// (``StringTableCompletenessTests``): every locale, the same keys as English, no empty or
/// untranslated value; and they are served without shadowing a key of the main tables.
@Suite("Logout page strings are complete in every locale")
struct LogoutStringsTests {
    static let english = LogoutStrings.tables["en"] ?? [:]

    @Test("one table per SPEC §1.11 locale, English with the five keys the pages use")
    func locales() {
        #expect(Set(LogoutStrings.tables.keys) == Set(SpecLocales.tags))
        #expect(
            Set(Self.english.keys) == [
                "logout.confirm.title", "logout.confirm.body", "logout.confirm.submit",
                "logout.redirect_unregistered", "logout.redirect_unidentified",
            ])
        for refusal in [PostLogoutRedirectRefusal.unidentifiedClient, .unregistered(clientID: "x")] {
            #expect(Self.english[refusal.messageKey] != nil)
        }
    }

    @Test("same keys as English, translated, no empty value", arguments: SpecLocales.nonEnglish)
    func complete(tag: String) throws {
        let table = try #require(LogoutStrings.tables[tag])
        #expect(Set(table.keys) == Set(Self.english.keys))
        for (key, value) in table {
            #expect(!value.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, "\(tag) \(key) is empty")
            #expect(value != Self.english[key], "\(tag) \(key) keeps the English text")
            #expect(
                StringTableCompletenessTests.placeholders(in: value)
                    == StringTableCompletenessTests.placeholders(in: Self.english[key] ?? ""))
        }
    }

    @Test("served by the default localizer, after the main tables, which they never shadow")
    func served() {
        let mainKeys = Set(StringTables.all.values.flatMap(\.keys))
        #expect(mainKeys.isDisjoint(with: Self.english.keys))
        let localizer = StringTableLocalizer()
        for tag in SpecLocales.tags {
            #expect(StringTables.served[tag]?.count == (StringTables.all[tag]?.count ?? 0) + Self.english.count)
            #expect(
                localizer.string("logout.confirm.title", locales: [tag])
                    == LogoutStrings.tables[tag]?["logout.confirm.title"])
        }
    }
}

import Foundation
import Testing
@testable import SesameServer

/// The feature string tables served beside the main ones (``LogoutStrings``,
/// ``AccountPageStrings``) meet the rules of the main tables
/// (``StringTableCompletenessTests``): every locale, the same keys as English, no empty or
/// untranslated value, the same placeholders; and they are served without shadowing a key of
/// the main tables or of each other.
@Suite("Feature string tables are complete in every locale")
struct FeatureStringTablesTests {
    static let features: [String: [String: [String: String]]] = [
        "logout": LogoutStrings.tables, "account pages": AccountPageStrings.tables,
    ]

    @Test("one table per supported locale", arguments: features.keys.sorted())
    func locales(feature: String) throws {
        let tables = try #require(Self.features[feature])
        #expect(Set(tables.keys) == Set(SpecLocales.tags))
    }

    @Test("the keys the pages use are in English")
    func englishKeys() {
        #expect(
            Set(LogoutStrings.tables["en"]?.keys.map { $0 } ?? []) == [
                "logout.confirm.title", "logout.confirm.body", "logout.confirm.submit",
                "logout.redirect_unregistered", "logout.redirect_unidentified",
            ])
        for refusal in [PostLogoutRedirectRefusal.unidentifiedClient, .unregistered(clientID: "x")] {
            #expect(LogoutStrings.tables["en"]?[refusal.messageKey] != nil)
        }
        let pages = [
            SignUpPage.form(), EmailVerificationPage.codeForm(email: "", noticeKey: "verify.sent", emailEditable: true),
            PasswordResetPage.requestForm(), PasswordResetPage.confirmForm(email: "", noticeKey: "password_reset.sent"),
        ]
        let localizer = StringTableLocalizer()
        for page in pages {
            let keys = [page.titleKey, page.submitKey] + [page.noticeKey, page.secondary?.key].compactMap { $0 }
                + page.fields.flatMap { [$0.labelKey] + [$0.hintKey].compactMap { $0 } }
            for key in keys { #expect(localizer.string(key, locales: ["en"]) != key, "\(key) has no English text") }
        }
    }

    @Test(
        "same keys as English, translated, no empty value",
        arguments: features.keys.sorted().flatMap { feature in SpecLocales.nonEnglish.map { (feature, $0) } })
    func complete(feature: String, tag: String) throws {
        let tables = try #require(Self.features[feature])
        let english = try #require(tables["en"])
        let table = try #require(tables[tag])
        #expect(Set(table.keys) == Set(english.keys))
        for (key, value) in table {
            #expect(!value.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, "\(tag) \(key) is empty")
            #expect(value != english[key], "\(tag) \(key) keeps the English text")
            #expect(
                StringTableCompletenessTests.placeholders(in: value)
                    == StringTableCompletenessTests.placeholders(in: english[key] ?? ""), "\(tag) \(key)")
        }
    }

    @Test("served by the default localizer, after the main tables, which they never shadow")
    func served() {
        let mainKeys = Set(StringTables.all.values.flatMap(\.keys))
        let featureKeys = Self.features.values.map { Set($0["en"]?.keys.map { $0 } ?? []) }
        for keys in featureKeys { #expect(mainKeys.isDisjoint(with: keys)) }
        #expect(featureKeys.reduce(0) { $0 + $1.count } == Set(featureKeys.flatMap { $0 }).count, "features share a key")
        let localizer = StringTableLocalizer()
        for tag in SpecLocales.tags {
            #expect(
                StringTables.served[tag]?.count
                    == (StringTables.all[tag]?.count ?? 0) + featureKeys.reduce(0) { $0 + $1.count })
            for tables in Self.features.values {
                for (key, value) in tables[tag] ?? [:] { #expect(localizer.string(key, locales: [tag]) == value) }
            }
        }
    }
}

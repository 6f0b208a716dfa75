import Foundation
import Testing
@testable import SesameServer

/// The string files themselves (`Localization/Strings/<tag>.json`): a comment for translators on
/// every English key, `same_as` references that resolve, one placeholder style, plural forms
/// chosen by the CLDR rules, and every key a hosted page uses has English text.
@Suite("String files: comments, shared sentences, placeholders and plural forms")
struct StringFileTests {
    static let englishFile = (try? StringTables.file("en")) ?? [:]
    static let aliases = englishFile.filter { $0.value.sameAs != nil }

    @Test("every English key says what it is for")
    func comments() {
        #expect(Self.englishFile.count > 100)
        for (key, entry) in Self.englishFile {
            #expect(entry.comment?.isEmpty == false, "en \(key) has no comment for translators")
        }
    }

    @Test("a shared sentence is written once: same_as names a key with text, and translations leave it out")
    func sharedSentences() throws {
        #expect(!Self.aliases.isEmpty)
        for (key, entry) in Self.aliases {
            let target = try #require(entry.sameAs)
            #expect(Self.englishFile[target]?.sameAs == nil, "\(key) → \(target) is not a key with text")
            #expect(StringTables.english[key] == StringTables.english[target])
        }
        for tag in SpecLocales.nonEnglish {
            let file = try StringTables.file(tag)
            #expect(Set(file.keys) == Set(Self.englishFile.keys).subtracting(Self.aliases.keys), "\(tag)")
            for (key, target) in Self.aliases.compactMapValues(\.sameAs) {
                #expect(StringTables.all[tag]?[key] == StringTables.all[tag]?[target], "\(tag) \(key)")
            }
        }
    }

    @Test("one placeholder style, {name}, and every plural form names its count")
    func placeholders() throws {
        for tag in SpecLocales.tags {
            for (key, entry) in try #require(StringTables.catalog[tag]) {
                for (category, form) in entry.forms {
                    #expect(!form.contains("%@") && !form.contains("%d"), "\(tag) \(key) uses a printf placeholder")
                    // Arabic writes "one" and "two" as words (حرف واحد, حرفان), without the number.
                    if let count = entry.countArgument, !(tag == "ar" && [.one, .two].contains(category)) {
                        #expect(form.contains("{\(count)}"), "\(tag) \(key) \(category): a form without {\(count)}")
                    }
                }
            }
        }
    }

    @Test("plural forms follow the count", arguments: [
        ("en", "field.too_short", "1", "Use at least 1 character."),
        ("en", "field.too_short", "8", "Use at least 8 characters."),
        ("fr", "field.too_short", "1", "Utilisez au moins 1 caractère."),
        ("ru", "account.password_hint", "1", "Не менее 1 символа."),
        ("ru", "account.password_hint", "3", "Не менее 3 символов."),
        ("sk", "account.password_hint", "3", "Aspoň 3 znaky."),
        ("sk", "account.password_hint", "8", "Aspoň 8 znakov."),
        ("ar", "account.password_hint", "2", "حرفان على الأقل."),
        ("ar", "account.password_hint", "8", "8 أحرف على الأقل."),
        ("ar", "account.password_hint", "12", "12 حرفًا على الأقل."),
        ("de", "field.too_long", "1", "Verwenden Sie höchstens 1 Zeichen."),
    ])
    func pluralForms(tag: String, key: String, count: String, expectedStart: String) {
        let argument = key == "field.too_long" ? "max" : "min"
        let text = StringTableLocalizer().string(key, locales: [tag], arguments: [argument: count])
        #expect(text.hasPrefix(expectedStart), "\(tag) \(key) for \(count): \(text)")
    }

    @Test("CLDR cardinal rules for whole numbers")
    func pluralRules() {
        func categories(_ locale: String, _ counts: [Int]) -> [PluralCategory] {
            counts.map { PluralRules.category(of: $0, locale: locale) }
        }
        #expect(categories("en", [0, 1, 2, 11]) == [.other, .one, .other, .other])
        #expect(categories("fr", [0, 1, 2]) == [.one, .one, .other])
        #expect(categories("pt", [0, 1, 2]) == [.one, .one, .other])
        #expect(categories("ru", [1, 2, 5, 11, 21, 22, 25, 112]) == [.one, .few, .many, .many, .one, .few, .many, .many])
        #expect(categories("sk", [1, 2, 4, 5]) == [.one, .few, .few, .other])
        #expect(categories("ar", [0, 1, 2, 3, 10, 11, 99, 100, 103]) == [.zero, .one, .two, .few, .few, .many, .many, .other, .few])
        #expect(categories("ja", [1, 2]) == [.other, .other])
        #expect(categories("zh-Hant", [1]) == [.other])
    }

    @Test("the keys the hosted pages use have English text")
    func pageKeys() {
        for refusal in [PostLogoutRedirectRefusal.unidentifiedClient, .unregistered(clientID: "x")] {
            #expect(StringTables.english[refusal.messageKey] != nil)
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
}

import SesameProtocol
import Testing
@testable import SesameServer

/// Locale resolution: `ui_locales` / `Accept-Language` → one of the 19 tables.
@Suite struct LocalizationResolutionTests {
    @Test("canonical maps Chinese and Norwegian")
    func canonicalMapsChineseAndNorwegian() {
        #expect(LocalePreference.canonical("zh-CN") == "zh-Hans")
        #expect(LocalePreference.canonical("zh-SG") == "zh-Hans")
        #expect(LocalePreference.canonical("zh") == "zh-Hans")
        #expect(LocalePreference.canonical("ZH-tw") == "zh-Hant")
        #expect(LocalePreference.canonical("zh_HK") == "zh-Hant")
        #expect(LocalePreference.canonical("zh-MO") == "zh-Hant")
        #expect(LocalePreference.canonical("zh-Hant-HK") == "zh-Hant")
        #expect(LocalePreference.canonical("zh-Hans-HK") == "zh-Hans", "an explicit script wins over the region")
        #expect(LocalePreference.canonical("zh-hant") == "zh-Hant")
        #expect(LocalePreference.canonical("no") == "nb")
        #expect(LocalePreference.canonical("nn-NO") == "nb")
        #expect(LocalePreference.canonical("nb-NO") == "nb")
        #expect(LocalePreference.canonical("de-AT") == "de-at")
    }

    @Test("accept language honours quality then order")

    func acceptLanguageHonoursQualityThenOrder() {
        #expect(LocalePreference.acceptLanguage("fr;q=0.5, de, sv;q=0.5, it;q=0") == ["de", "fr", "sv"])
        #expect(LocalePreference.acceptLanguage("*, ja;q=0.1") == ["ja"])
    }

    @Test("region falls back to language and unknown to English")

    func regionFallsBackToLanguageAndUnknownToEnglish() {
        let localizer = StringTableLocalizer(tables: ["en": StringTables.english, "pt": [:], "nb": [:]])
        #expect(localizer.resolvedLocale(for: ["pt-BR"]) == "pt")
        #expect(localizer.resolvedLocale(for: ["nn"]) == "nb")
        #expect(localizer.resolvedLocale(for: ["xx"]) == "en")
    }

    @Test("the default localizer serves every supported locale from its own table", arguments: SpecLocales.tags)
    func defaultLocalizerServesEveryLocale(tag: String) throws {
        let localizer = StringTableLocalizer()
        let table = try #require(StringTables.all[tag])
        #expect(localizer.resolvedLocale(for: [tag]) == tag)
        #expect(localizer.resolvedLocale(for: [tag.uppercased()]) == tag)
        #expect(localizer.string("login.submit", locales: [tag]) == table["login.submit"])
        #expect(localizer.string(APIErrorCode.invalidGrant.messageKey, locales: [tag]) == table["error.invalid_grant"])
    }

    @Test("regional aliases resolve to their table", arguments: SpecLocales.aliases)
    func aliases(alias: (tag: String, table: String)) {
        #expect(StringTableLocalizer().resolvedLocale(for: [alias.tag]) == alias.table)
    }

    @Test("first supported preference wins and unknown falls back to English")

    func firstSupportedPreferenceWinsAndUnknownFallsBackToEnglish() {
        let localizer = StringTableLocalizer()
        #expect(localizer.resolvedLocale(for: ["tlh", "xx-YY", "ko", "de"]) == "ko")
        #expect(localizer.resolvedLocale(for: ["tlh", "xx-YY"]) == "en")
        #expect(localizer.resolvedLocale(for: []) == "en")
        #expect(localizer.string("no.such.key", locales: ["de"]) == "no.such.key")
    }

    @Test("missing key in a table falls back to English")

    func missingKeyInATableFallsBackToEnglish() {
        let localizer = StringTableLocalizer(tables: ["en": StringTables.english, "de": ["login.title": "Anmelden"]])
        #expect(localizer.string("login.title", locales: ["de"]) == "Anmelden")
        #expect(localizer.string("login.submit", locales: ["de"]) == StringTables.english["login.submit"])
    }

    @Test("field errors are localized with their placeholders filled", arguments: SpecLocales.tags)
    func fieldErrors(tag: String) throws {
        let table = try #require(StringTables.all[tag])
        let error = StringTableLocalizer().fieldError(
            field: "password", code: "too_short", locales: [tag], arguments: ["min": "12"])
        #expect(error.field == "password")
        #expect(error.code == "too_short")
        #expect(error.message == table["field.too_short"]?.replacingOccurrences(of: "{min}", with: "12"))
        #expect(error.message.contains("12"))
        #expect(!error.message.contains("{min}"))
    }

    @Test("Arabic is right to left and the others left to right")

    func arabicIsRightToLeftAndTheOthersLeftToRight() {
        for tag in SpecLocales.tags {
            #expect(TextDirection.of(tag) == (tag == "ar" ? .rightToLeft : .leftToRight), "\(tag)")
        }
        #expect(TextDirection.of("ar-EG") == .rightToLeft)
        #expect(TextDirection.of("he") == .rightToLeft)
    }
}

import Testing
import SesameProtocol
@testable import SesameServer

@Suite struct LocalizationResolutionTests {
    @Test func canonicalMapsChineseAndNorwegian() {
        #expect(LocalePreference.canonical("zh-CN") == "zh-Hans")
        #expect(LocalePreference.canonical("zh") == "zh-Hans")
        #expect(LocalePreference.canonical("ZH-tw") == "zh-Hant")
        #expect(LocalePreference.canonical("zh-Hant-HK") == "zh-Hant")
        #expect(LocalePreference.canonical("no") == "nb")
        #expect(LocalePreference.canonical("nb-NO") == "nb")
        #expect(LocalePreference.canonical("de-AT") == "de-at")
    }

    @Test func acceptLanguageHonoursQualityThenOrder() {
        #expect(LocalePreference.acceptLanguage("fr;q=0.5, de, sv;q=0.5, it;q=0") == ["de", "fr", "sv"])
    }

    @Test func regionFallsBackToLanguageAndUnknownToEnglish() {
        let localizer = StringTableLocalizer(tables: ["en": EnglishStrings.table, "pt": [:], "nb": [:]])
        #expect(localizer.resolvedLocale(for: ["pt-BR"]) == "pt")
        #expect(localizer.resolvedLocale(for: ["nn"]) == "nb")
        #expect(localizer.resolvedLocale(for: ["xx"]) == "en")
    }

    @Test func englishHasEveryErrorKey() {
        for code in APIErrorCode.allCases {
            #expect(EnglishStrings.table[code.messageKey] != nil, "missing \(code.messageKey)")
        }
    }
}

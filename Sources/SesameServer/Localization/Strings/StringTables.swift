/// Every shipped string table, keyed by the BCP 47 tag it is served for.
///
/// ``StringTableLocalizer``'s default uses these; `discovery` advertises ``tags`` as
/// `ui_locales_supported`. Regional and script variants reach a table through
/// ``LocalePreference/canonical(_:)`` (zh-CN, zh-SG → `zh-Hans`; zh-TW, zh-HK, zh-MO → `zh-Hant`;
/// no, nn → `nb`) or the language fallback (pt-BR → `pt`, de-AT → `de`).
public enum StringTables {
    /// The supported locale tags, in the order the locale list names them.
    public static let tags: [String] = [
        "ar", "da", "de", "en", "es", "fi", "fr", "hu", "it", "ja", "ko", "nb", "nl", "pt", "ru", "sk",
        "sv", "zh-Hans", "zh-Hant",
    ]

    public static let all: [String: [String: String]] = [
        "ar": ArabicStrings.table,
        "da": DanishStrings.table,
        "de": GermanStrings.table,
        "en": EnglishStrings.table,
        "es": SpanishStrings.table,
        "fi": FinnishStrings.table,
        "fr": FrenchStrings.table,
        "hu": HungarianStrings.table,
        "it": ItalianStrings.table,
        "ja": JapaneseStrings.table,
        "ko": KoreanStrings.table,
        "nb": NorwegianBokmalStrings.table,
        "nl": DutchStrings.table,
        "pt": PortugueseStrings.table,
        "ru": RussianStrings.table,
        "sk": SlovakStrings.table,
        "sv": SwedishStrings.table,
        "zh-Hans": SimplifiedChineseStrings.table,
        "zh-Hant": TraditionalChineseStrings.table,
    ]
}

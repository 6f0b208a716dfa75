/// CLDR plural categories (Unicode TR 35, Part 3 "Numbers", §5 Language Plural Rules).
public enum PluralCategory: String, Sendable, CaseIterable, Codable {
    case zero, one, two, few, many, other
}

/// The CLDR cardinal plural rules of the shipped locales, for whole numbers (counts of
/// characters, attempts, minutes). Other numbers and other locales use `other`.
enum PluralRules {
    static func category(of count: Int, locale: String) -> PluralCategory {
        let n = abs(count)
        let mod10 = n % 10
        let mod100 = n % 100
        switch locale.split(separator: "-").first.map(String.init) ?? locale {
        case "ja", "ko", "zh":
            return .other
        case "ar":
            if n == 0 { return .zero }
            if n == 1 { return .one }
            if n == 2 { return .two }
            if (3...10).contains(mod100) { return .few }
            if (11...99).contains(mod100) { return .many }
            return .other
        case "fr", "pt":
            return n <= 1 ? .one : .other
        case "ru":
            if mod10 == 1 && mod100 != 11 { return .one }
            if (2...4).contains(mod10) && !(12...14).contains(mod100) { return .few }
            return .many
        case "sk":
            if n == 1 { return .one }
            if (2...4).contains(n) { return .few }
            return .other
        default:  // da, de, en, es, fi, hu, it, nb, nl, sv
            return n == 1 ? .one : .other
        }
    }
}

/// The writing direction of a locale, for the `dir` attribute of a page's `<html>` element
/// (HTML Living Standard §3.2.6.4). Arabic is the one right-to-left locale Sesame ships;
/// the other common right-to-left languages are listed so a later table works.
enum TextDirection: String, Sendable {
    case leftToRight = "ltr"
    case rightToLeft = "rtl"

    private static let rightToLeftLanguages: Set<String> = [
        "ar", "ckb", "dv", "fa", "he", "iw", "ks", "ps", "sd", "ug", "ur", "yi",
    ]

    /// The direction for a resolved locale tag such as `ar`, `en` or `zh-Hant`.
    static func of(_ locale: String) -> TextDirection {
        let lower = locale.lowercased()
        let language = lower.split(separator: "-").first.map(String.init) ?? lower
        return rightToLeftLanguages.contains(language) ? .rightToLeft : .leftToRight
    }
}

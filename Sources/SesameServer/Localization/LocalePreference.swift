import Hummingbird

/// The user's preferred locales: OIDC `ui_locales` (space-separated, OIDC Core §3.1.2.1) first,
/// then `Accept-Language` (RFC 9110 §12.5.4) by quality, ties by order.
enum LocalePreference {
    static func from(request: Request, uiLocales: String? = nil) -> [String] {
        var result: [String] = []
        if let uiLocales {
            result += uiLocales.split(separator: " ").map(String.init)
        }
        if let header = request.headers[.acceptLanguage] {
            result += acceptLanguage(header)
        }
        return result
    }

    /// Tags of an `Accept-Language` header ordered by q-value (RFC 9110 §12.4.2), ties by order;
    /// `q=0` and `*` are dropped.
    static func acceptLanguage(_ header: String) -> [String] {
        let weighted = header.split(separator: ",").compactMap { part -> (String, Double)? in
            let pieces = part.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let tag = pieces.first, !tag.isEmpty, tag != "*" else { return nil }
            let quality = pieces.dropFirst().first { $0.lowercased().hasPrefix("q=") }
                .flatMap { Double($0.dropFirst(2)) } ?? 1
            return quality > 0 ? (tag, quality) : nil
        }
        return weighted.enumerated()
            .sorted { $0.element.1 != $1.element.1 ? $0.element.1 > $1.element.1 : $0.offset < $1.offset }
            .map(\.element.0)
    }

    /// Normalizes case and maps tags to the locale set: Chinese to `zh-Hans` /
    /// `zh-Hant` (an explicit script subtag wins; else TW, HK, MO → Hant; else — CN, SG, bare
    /// `zh` — Hans), Norwegian (`no`, `nn`, `nb-*`) to `nb`. Other region subtags fall back to
    /// the language in ``StringTableLocalizer``.
    static func canonical(_ tag: String) -> String {
        let lower = tag.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "_", with: "-")
            .lowercased()
        let parts = lower.split(separator: "-").map(String.init)
        guard let language = parts.first else { return lower }
        switch language {
        case "zh":
            if parts.contains("hans") { return "zh-Hans" }
            if parts.contains("hant") { return "zh-Hant" }
            if parts.contains(where: { ["tw", "hk", "mo"].contains($0) }) { return "zh-Hant" }
            return "zh-Hans"
        case "no", "nn", "nb": return "nb"
        default: return lower
        }
    }
}

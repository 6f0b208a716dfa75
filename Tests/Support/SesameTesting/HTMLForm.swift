import Foundation

/// Reads the `<input>` fields of a server-rendered form (the hosted login page), decoding the
/// HTML escapes Mustache produces.
public struct HTMLForm {
    /// `name` → `value` of every `<input ... name="..." value="...">`.
    public let fields: [String: String]
    public let action: String?

    public init(html: String) {
        var fields: [String: String] = [:]
        let inputPattern = try! NSRegularExpression(pattern: "<input\\b[^>]*>", options: [.caseInsensitive])
        let range = NSRange(html.startIndex..., in: html)
        for match in inputPattern.matches(in: html, range: range) {
            let tag = String(html[Range(match.range, in: html)!])
            guard let name = Self.attribute("name", in: tag) else { continue }
            fields[name] = Self.attribute("value", in: tag) ?? ""
        }
        self.fields = fields
        let formTag = try! NSRegularExpression(pattern: "<form\\b[^>]*>", options: [.caseInsensitive])
        if let match = formTag.firstMatch(in: html, range: range) {
            action = Self.attribute("action", in: String(html[Range(match.range, in: html)!]))
        } else {
            action = nil
        }
    }

    public static func attribute(_ name: String, in tag: String) -> String? {
        let pattern = try! NSRegularExpression(pattern: "\\s\(name)=\"([^\"]*)\"")
        guard let match = pattern.firstMatch(in: tag, range: NSRange(tag.startIndex..., in: tag)),
            let range = Range(match.range(at: 1), in: tag)
        else { return nil }
        return unescape(String(tag[range]))
    }

    public static func unescape(_ text: String) -> String {
        var result = text
        let named = ["&lt;": "<", "&gt;": ">", "&quot;": "\"", "&#39;": "'", "&#x27;": "'", "&#x2F;": "/"]
        for (entity, character) in named { result = result.replacingOccurrences(of: entity, with: character) }
        return result.replacingOccurrences(of: "&amp;", with: "&")
    }
}

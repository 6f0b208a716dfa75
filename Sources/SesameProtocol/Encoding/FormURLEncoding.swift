import Foundation

/// `application/x-www-form-urlencoded` bodies and query strings, as OAuth 2.0 uses them
/// (RFC 6749 Appendix B): UTF-8, every character outside the unreserved set percent-encoded,
/// space as `%20` on encode and `+` or `%20` accepted on decode.
package enum FormURLEncoding {
    /// RFC 3986 §2.3 unreserved characters.
    private static let unreserved = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    /// Percent-encodes one name or value.
    package static func escape(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
    }

    /// Encodes ordered pairs as `a=1&b=2`.
    package static func encode(_ pairs: [(String, String)]) -> String {
        pairs.map { "\(escape($0.0))=\(escape($0.1))" }.joined(separator: "&")
    }

    /// Encodes a dictionary with keys sorted, so output is deterministic.
    package static func encode(_ parameters: [String: String]) -> String {
        encode(parameters.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
    }

    /// Decodes `a=1&b=2` into ordered pairs. Malformed percent escapes decode to `nil` for the
    /// whole body so callers can answer `invalid_request` instead of guessing.
    ///
    /// The body is split on the bytes `&` and `=` (WHATWG URL §5.1 parses bytes), not on
    /// characters: no grapheme breaking on every request, and a `&` followed by a combining mark
    /// still separates two parameters. Neither byte occurs inside a multi-byte UTF-8 sequence,
    /// so every piece starts and ends on a scalar boundary.
    package static func decodePairs(_ body: String) -> [(String, String)]? {
        var result: [(String, String)] = []
        for part in body.utf8.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
            let equals = part.firstIndex(of: UInt8(ascii: "="))
            let name = Substring(part[..<(equals ?? part.endIndex)])
            let value = equals.map { Substring(part[part.index(after: $0)...]) } ?? ""
            guard let name = unescape(name), let value = unescape(value) else { return nil }
            result.append((name, value))
        }
        return result
    }

    /// Decodes into a dictionary. RFC 6749 §3.1: parameters MUST NOT be included more than
    /// once, so a repeated name makes the whole body invalid (`nil`).
    package static func decode(_ body: String) -> [String: String]? {
        guard let pairs = decodePairs(body) else { return nil }
        var result: [String: String] = [:]
        for (name, value) in pairs {
            if result[name] != nil { return nil }
            result[name] = value
        }
        return result
    }

    /// Decodes into a dictionary for a server that knows the parameter names in `recognized`
    /// (RFC 6749 §3.1): a recognized name that repeats makes the whole body invalid (`nil`); a
    /// name it does not recognize is ignored, repeated or not, and left out of the result; and
    /// "parameters sent without a value MUST be treated as if they were omitted". A name in
    /// `repeatable` may repeat: its values are joined by a space.
    package static func decode(
        _ body: String, recognized: Set<String>, repeatable: Set<String> = RecognizedParameters.repeatable
    ) -> [String: String]? {
        guard let pairs = decodePairs(body) else { return nil }
        var result: [String: String] = [:]
        var seen: Set<String> = []
        for (name, value) in pairs where recognized.contains(name) {
            guard seen.insert(name).inserted else {
                guard repeatable.contains(name) else { return nil }
                if !value.isEmpty { result[name] = result[name].map { $0 + " " + value } ?? value }
                continue
            }
            if !value.isEmpty { result[name] = value }
        }
        return result
    }

    /// `+` is a space, `%XX` a byte (RFC 3986 §2.1, either case); the bytes must be UTF-8.
    /// `nil` for a `%` not followed by two hex digits or bytes that are not UTF-8, like
    /// Foundation's `removingPercentEncoding`, which this replaces on the hot path (token
    /// requests): most OAuth values contain neither `%` nor `+` and are returned as they are.
    static func unescape(_ text: Substring) -> String? {
        let utf8 = text.utf8
        guard utf8.contains(where: { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "+") }) else {
            return String(text)
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count)
        var index = utf8.startIndex
        while index != utf8.endIndex {
            let byte = utf8[index]
            utf8.formIndex(after: &index)
            switch byte {
            case UInt8(ascii: "+"):
                bytes.append(UInt8(ascii: " "))
            case UInt8(ascii: "%"):
                guard index != utf8.endIndex, let high = hexValue(utf8[index]) else { return nil }
                utf8.formIndex(after: &index)
                guard index != utf8.endIndex, let low = hexValue(utf8[index]) else { return nil }
                utf8.formIndex(after: &index)
                bytes.append(high << 4 | low)
            default:
                bytes.append(byte)
            }
        }
        return String(bytes: bytes, encoding: .utf8)
    }

    /// The value of one hexadecimal digit (`0-9`, `a-f`, `A-F`), or `nil` (RFC 3986 §2.1; also
    /// RFC 4514 §2.4's escaped bytes).
    package static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

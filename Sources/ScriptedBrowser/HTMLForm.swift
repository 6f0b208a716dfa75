import Foundation

/// A form scraped from an HTML page: enough of HTML to submit the hosted pages the way a
/// browser would (hidden inputs such as the CSRF token are kept, the rest filled in).
public struct HTMLForm: Sendable, Equatable {
    /// The `action` attribute, unresolved (empty means "the page's own URL").
    public var action: String
    /// `get` or `post`, lowercased.
    public var method: String
    /// Every named `<input>` in document order with its `type` (lowercased) and initial value.
    public var inputs: [Input]

    public struct Input: Sendable, Equatable {
        public var name: String
        public var type: String
        public var value: String
    }

    /// The page read as one form: the first `<form>`'s action and method, and every named
    /// `<input>` of the page (a page's forms share its CSRF token and carried parameters).
    public init(html: String) {
        let first = Self.forms(in: html).first
        action = first?.action ?? ""
        method = first?.method ?? "get"
        inputs = Self.inputs(in: html[...])
    }

    init(action: String, method: String, inputs: [Input]) {
        self.action = action
        self.method = method
        self.inputs = inputs
    }

    /// `name` → value of every input (a later input of the same name wins).
    public var fields: [String: String] {
        Dictionary(inputs.map { ($0.name, $0.value) }, uniquingKeysWith: { $1 })
    }

    /// The first `<form>` of `html` that contains a password field, or `nil` when there is none.
    public static func loginForm(in html: String) -> HTMLForm? {
        forms(in: html).first { form in form.inputs.contains { $0.type == "password" } }
    }

    /// Every `<form>` in `html`.
    public static func forms(in html: String) -> [HTMLForm] {
        var result: [HTMLForm] = []
        var rest = html[...]
        while let open = rest.range(of: "<form", options: .caseInsensitive) {
            let (attributes, afterTag) = tagAttributes(rest[open.upperBound...])
            let close = afterTag.range(of: "</form", options: .caseInsensitive)
            let body = close.map { afterTag[..<$0.lowerBound] } ?? afterTag
            result.append(
                HTMLForm(
                    action: attributes["action"] ?? "",
                    method: (attributes["method"] ?? "get").lowercased(),
                    inputs: inputs(in: body)))
            rest = close.map { afterTag[$0.upperBound...] } ?? afterTag[afterTag.endIndex...]
        }
        return result
    }

    /// The fields to submit: hidden and other inputs with their values, `username` in the first
    /// text or email field and `password` in the password field.
    public func fields(username: String, password: String) -> [(String, String)] {
        var filledUsername = false
        var fields: [(String, String)] = []
        for input in inputs {
            switch input.type {
            case "password":
                fields.append((input.name, password))
            case "text", "email":
                if filledUsername {
                    fields.append((input.name, input.value))
                } else {
                    filledUsername = true
                    fields.append((input.name, username))
                }
            case "checkbox", "radio", "submit", "button", "image", "reset", "file":
                continue
            default:
                fields.append((input.name, input.value))
            }
        }
        return fields
    }

    private static func inputs(in body: Substring) -> [Input] {
        var inputs: [Input] = []
        var rest = body
        while let open = rest.range(of: "<input", options: .caseInsensitive) {
            let (attributes, after) = tagAttributes(rest[open.upperBound...])
            if let name = attributes["name"], !name.isEmpty {
                inputs.append(
                    Input(
                        name: name, type: (attributes["type"] ?? "text").lowercased(),
                        value: attributes["value"] ?? ""))
            }
            rest = after
        }
        return inputs
    }

    /// Parses the attributes of a tag whose name has been consumed; returns them (names
    /// lowercased, values entity-decoded) and the text after the closing `>`.
    static func tagAttributes(_ text: Substring) -> ([String: String], Substring) {
        var attributes: [String: String] = [:]
        var index = text.startIndex
        func skipSpaces() {
            while index < text.endIndex, text[index].isWhitespace || text[index] == "/" {
                index = text.index(after: index)
            }
        }
        while true {
            skipSpaces()
            guard index < text.endIndex else { return (attributes, text[text.endIndex...]) }
            if text[index] == ">" { return (attributes, text[text.index(after: index)...]) }
            let nameStart = index
            while index < text.endIndex, !text[index].isWhitespace,
                !"=>/".contains(text[index])
            {
                index = text.index(after: index)
            }
            let name = text[nameStart..<index].lowercased()
            while index < text.endIndex, text[index].isWhitespace { index = text.index(after: index) }
            var value = ""
            if index < text.endIndex, text[index] == "=" {
                index = text.index(after: index)
                while index < text.endIndex, text[index].isWhitespace {
                    index = text.index(after: index)
                }
                if index < text.endIndex, text[index] == "\"" || text[index] == "'" {
                    let quote = text[index]
                    index = text.index(after: index)
                    let valueStart = index
                    while index < text.endIndex, text[index] != quote { index = text.index(after: index) }
                    value = String(text[valueStart..<index])
                    if index < text.endIndex { index = text.index(after: index) }
                } else {
                    let valueStart = index
                    while index < text.endIndex, !text[index].isWhitespace, text[index] != ">" {
                        index = text.index(after: index)
                    }
                    value = String(text[valueStart..<index])
                }
            }
            if !name.isEmpty, attributes[name] == nil { attributes[name] = decodeEntities(value) }
        }
    }

    /// Decodes the HTML character references a server template emits (`&amp;`, `&#39;`, ...).
    public static func decodeEntities(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var result = ""
        var rest = text[...]
        while let amp = rest.firstIndex(of: "&") {
            result += rest[..<amp]
            guard let semi = rest[amp...].firstIndex(of: ";"),
                rest.distance(from: amp, to: semi) <= 10
            else {
                result += "&"
                rest = rest[rest.index(after: amp)...]
                continue
            }
            let entity = rest[rest.index(after: amp)..<semi]
            if let decoded = decodeEntity(entity) {
                result += decoded
            } else {
                result += rest[amp...semi]
            }
            rest = rest[rest.index(after: semi)...]
        }
        return result + rest
    }

    private static func decodeEntity(_ entity: Substring) -> String? {
        switch entity {
        case "amp": return "&"
        case "lt": return "<"
        case "gt": return ">"
        case "quot": return "\""
        case "apos": return "'"
        default:
            guard entity.hasPrefix("#") else { return nil }
            let digits = entity.dropFirst()
            let scalar: UInt32? =
                digits.hasPrefix("x") || digits.hasPrefix("X")
                ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits)
            return scalar.flatMap(Unicode.Scalar.init).map { String(Character($0)) }
        }
    }
}

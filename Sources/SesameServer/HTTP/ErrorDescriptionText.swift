import Foundation

/// The character set of `error_description`: RFC 6749 §4.1.2.1, §5.2 and RFC 6750 §3 allow
/// only `%x20-21 / %x23-5B / %x5D-7E`, printable ASCII without `"` and `\`. OIDC Core §3.1.2.6
/// uses the same parameter.
///
/// Descriptions are written to comply, but some echo client input (a scope, a grant type, a
/// `prompt` value) and could carry anything. Every description the server emits, in JSON error
/// bodies (``APIErrorMiddleware``) and in error redirects (``AuthorizationResponder``), goes
/// through ``sanitized(_:)``.
enum ErrorDescriptionText {
    /// Whether `scalar` may appear in an `error_description`.
    static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x20...0x21, 0x23...0x5B, 0x5D...0x7E: true
        default: false
        }
    }

    /// Whether all of `text` may be sent as an `error_description`.
    /// Every allowed character is ASCII, so the check runs on the UTF-8 bytes: a byte of a
    /// multi-byte character (0x80 and up) is refused as its scalar would be.
    static func isValid(_ text: String) -> Bool {
        text.utf8.allSatisfy { byte in
            switch byte {
            case 0x20...0x21, 0x23...0x5B, 0x5D...0x7E: true
            default: false
            }
        }
    }

    /// `text` with every character outside the allowed set replaced: quotes by `'`, `\` by `/`,
    /// `§` by `section`, a few typographic characters by their ASCII form, whitespace by a
    /// space, anything else by `?`.
    static func sanitized(_ text: String) -> String {
        if isValid(text) { return text }
        var result = String.UnicodeScalarView()
        let scalars = Array(text.unicodeScalars)
        for (index, scalar) in scalars.enumerated() {
            if isAllowed(scalar) {
                result.append(scalar)
            } else if scalar == "\u{A7}" {
                // "§4.1" → "section 4.1", "§ 4.1" → "section 4.1".
                result.append(contentsOf: "section".unicodeScalars)
                if index + 1 < scalars.count, !scalars[index + 1].properties.isWhitespace { result.append(" ") }
            } else {
                result.append(contentsOf: replacement(for: scalar).unicodeScalars)
            }
        }
        return String(result)
    }

    private static func replacement(for scalar: Unicode.Scalar) -> String {
        switch scalar {
        case "\"", "\u{2018}", "\u{2019}", "\u{201C}", "\u{201D}": "'"
        case "\\": "/"
        case "\u{2013}", "\u{2014}", "\u{2212}": "-"
        case "\u{2026}": "..."
        case "\u{2264}": "<="
        case "\u{2265}": ">="
        case "\u{2192}": "->"
        default: scalar.properties.isWhitespace ? " " : "?"
        }
    }
}

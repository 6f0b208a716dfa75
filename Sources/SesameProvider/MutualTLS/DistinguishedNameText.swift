import SesameProtocol
import X509

/// Distinguished names in the RFC 4514 string form (`CN=payments,O=Example Bank,C=GB`), read
/// into a list of attribute type and value pairs that compare as RFC 8705 §2.1.2 asks: the
/// registered `tls_client_auth_subject_dn` against the presented certificate's subject. Types
/// are upper-cased (`cn` is `CN`), values unescaped (§2.4), trimmed and compared without regard
/// to case (the `caseIgnoreMatch` of the usual attributes, RFC 4517 §4.2.11).
package enum DistinguishedNameText {
    /// One attribute: its type and value, both normalized.
    package struct Attribute: Equatable, Sendable {
        package let type: String
        package let value: String
    }

    /// The attributes of `text` in order, or `nil` when it is not a DN (an empty one, a part
    /// without `=`, an escape at the end).
    package static func parse(_ text: String) -> [Attribute]? {
        var attributes: [Attribute] = []
        var current = ""
        var escaped = false
        var parts: [String] = []
        for character in text {
            if escaped {
                current.append(character)
                escaped = false
            } else if character == "\\" {
                current.append(character)
                escaped = true
            } else if character == "," || character == ";" || character == "+" {
                parts.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        guard !escaped else { return nil }
        parts.append(current)
        for part in parts {
            guard let equals = unescapedEquals(in: part) else { return nil }
            let type = canonicalType(String(part[..<equals]))
            let value = unescape(String(part[part.index(after: equals)...]).trimmingSpaces).lowercased()
            guard !type.isEmpty, !type.contains(" ") else { return nil }
            attributes.append(Attribute(type: type, value: value))
        }
        return attributes.isEmpty ? nil : attributes
    }

    /// The attributes of a certificate's DN in RFC 4514 order (the last RDN first), read from
    /// its structure, so a value holding a comma needs no escaping.
    package static func attributes(of name: DistinguishedName) -> [Attribute] {
        name.reversed().flatMap { rdn in
            rdn.map { attribute in
                let text = String(describing: attribute)
                let equals = text.firstIndex(of: "=") ?? text.endIndex
                let value = equals < text.endIndex ? String(text[text.index(after: equals)...]) : ""
                return Attribute(type: canonicalType(String(text[..<equals])), value: value.trimmingSpaces.lowercased())
            }
        }
    }

    /// The short names swift-certificates prints, for the long ones RFC 4514 §3 and OpenSSL
    /// also accept.
    static func canonicalType(_ type: String) -> String {
        let upper = type.trimmingSpaces.uppercased()
        return aliases[upper] ?? upper
    }

    private static let aliases = [
        "COMMONNAME": "CN", "COUNTRYNAME": "C", "LOCALITYNAME": "L", "STATEORPROVINCENAME": "ST", "S": "ST",
        "ORGANIZATIONNAME": "O", "ORGANIZATIONALUNITNAME": "OU", "STREETADDRESS": "STREET",
        "DOMAINCOMPONENT": "DC", "EMAILADDRESS": "E", "EMAIL": "E",
    ]

    private static func unescapedEquals(in part: String) -> String.Index? {
        var escaped = false
        for index in part.indices {
            if escaped { escaped = false; continue }
            if part[index] == "\\" { escaped = true } else if part[index] == "=" { return index }
        }
        return nil
    }

    /// RFC 4514 §2.4: `\` followed by a special character stands for it; `\` and two hex digits
    /// for that byte.
    private static func unescape(_ value: String) -> String {
        var bytes: [UInt8] = []
        var characters = Array(value.utf8)[...]
        while let byte = characters.popFirst() {
            guard byte == UInt8(ascii: "\\"), let next = characters.first else {
                bytes.append(byte)
                continue
            }
            if characters.count >= 2, let high = FormURLEncoding.hexValue(next),
                let low = FormURLEncoding.hexValue(characters[characters.startIndex + 1]) {
                bytes.append(high << 4 | low)
                characters = characters.dropFirst(2)
            } else {
                bytes.append(next)
                characters = characters.dropFirst()
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension StringProtocol {
    fileprivate var trimmingSpaces: String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}

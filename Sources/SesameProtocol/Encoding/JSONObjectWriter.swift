/// Writes one JSON object (RFC 8259 §4) member by member, straight into UTF-8 bytes.
///
/// For the few documents the server writes on every request (a token response and the two JWT
/// payloads of a refresh): Foundation's `JSONEncoder` builds a tree of boxed values through the
/// `Encoder` protocols first, which was a tenth of a refresh's CPU outside the signatures
/// (issue #50). Members are written in call order; strings are escaped as RFC 8259 §7 requires
/// (quotation mark, reverse solidus and the control characters U+0000–U+001F), everything else
/// is copied as UTF-8, and `/` is not escaped.
package struct JSONObjectWriter {
    private var bytes: [UInt8]
    private var isEmpty = true

    /// - Parameter capacity: bytes to reserve, about the document's size.
    package init(capacity: Int = 256) {
        bytes = []
        bytes.reserveCapacity(capacity)
        bytes.append(UInt8(ascii: "{"))
    }

    /// The object, closed.
    package consuming func finish() -> [UInt8] {
        bytes.append(UInt8(ascii: "}"))
        return bytes
    }

    package mutating func member(_ name: StaticString, _ value: String) {
        key(name)
        string(value)
    }

    package mutating func member(_ name: StaticString, _ value: Int) {
        key(name)
        bytes.append(contentsOf: String(value).utf8)
    }

    package mutating func member(_ name: StaticString, _ values: [String]) {
        key(name)
        array(values)
    }

    /// The member only when `value` is not `nil` (an absent optional member).
    package mutating func member(_ name: StaticString, ifPresent value: String?) {
        if let value { member(name, value) }
    }

    package mutating func member(_ name: StaticString, ifPresent value: Int?) {
        if let value { member(name, value) }
    }

    package mutating func member(_ name: StaticString, ifPresent values: [String]?) {
        if let values { member(name, values) }
    }

    /// A member whose value is an object, written by `body` (its members only).
    package mutating func member(_ name: StaticString, object body: (inout JSONObjectWriter) -> Void) {
        key(name)
        var nested = JSONObjectWriter(capacity: 64)
        body(&nested)
        bytes.append(contentsOf: nested.finish())
    }

    /// A string member whose value is one string, or several as an array (RFC 7519 §4.1.3's
    /// `aud`).
    package mutating func member(_ name: StaticString, oneOrMany values: [String]) {
        if values.count == 1 { member(name, values[0]) } else { member(name, values) }
    }

    private mutating func key(_ name: StaticString) {
        if !isEmpty { bytes.append(UInt8(ascii: ",")) }
        isEmpty = false
        bytes.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
    }

    private mutating func array(_ values: [String]) {
        bytes.append(UInt8(ascii: "["))
        for (index, value) in values.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            string(value)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    private mutating func string(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        var value = value
        value.withUTF8 { utf8 in
            var clean = true
            for byte in utf8 where Self.needsEscape(byte) {
                clean = false
                break
            }
            if clean { bytes.append(contentsOf: utf8) } else { escaped(utf8) }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private mutating func escaped(_ utf8: UnsafeBufferPointer<UInt8>) {
        for byte in utf8 {
            guard Self.needsEscape(byte) else {
                bytes.append(byte)
                continue
            }
            bytes.append(UInt8(ascii: "\\"))
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(byte)
            case 0x0A: bytes.append(UInt8(ascii: "n"))
            case 0x0D: bytes.append(UInt8(ascii: "r"))
            case 0x09: bytes.append(UInt8(ascii: "t"))
            default:
                bytes.append(contentsOf: "u00".utf8)
                bytes.append(Self.hexDigits[Int(byte >> 4)])
                bytes.append(Self.hexDigits[Int(byte & 0x0F)])
            }
        }
    }
}

import Foundation

/// A strict RFC 8259 reader for the top level of a JOSE header or JWT claims set
/// (RFC 7515 §4, RFC 7519 §4), used on the ID-token validation hot path.
///
/// `JSONDecoder` builds a keyed container (a dictionary of every member) before the first claim
/// is read; for a 400-byte claims set that costs more than the claim checks themselves, and full
/// validation should cost little more than the signature check (docs/benchmarks.md). This reader walks
/// the bytes once and hands each top-level member to the caller; values the caller does not
/// need are validated and skipped without allocating.
///
/// Rules enforced: one JSON object; RFC 8259 grammar for strings (escapes, surrogate pairs, no
/// raw control characters, valid UTF-8), numbers, literals, nested arrays and objects (depth
/// ≤ 32); nothing but whitespace after the object. Duplicate member names are the caller's to
/// reject (RFC 7519 §4 allows rejecting or last-wins; the claims and header readers reject a
/// repeated member they read, which removes parser-differential attacks on those members).
package struct JWTJSONReader {
    /// A top-level member's value. Nested objects and arrays of non-strings are `.other`.
    package enum Value: Sendable {
        case string(String)
        case number(Double)
        case bool(Bool)
        case null
        case stringArray([String])
        case other
    }

    package struct Malformed: Error {
        package let reason: String

        package init(reason: String) { self.reason = reason }
    }

    private let bytes: [UInt8]
    private var index = 0

    private init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Calls `body` with each top-level member of the object in `bytes`, in document order.
    package static func forEachMember(
        in bytes: [UInt8], _ body: (String, Value) throws -> Void
    ) throws {
        var reader = JWTJSONReader(bytes)
        reader.skipWhitespace()
        try reader.expect(UInt8(ascii: "{"))
        reader.skipWhitespace()
        if reader.peek() == UInt8(ascii: "}") {
            reader.index += 1
        } else {
            while true {
                reader.skipWhitespace()
                let name = try reader.readString()
                reader.skipWhitespace()
                try reader.expect(UInt8(ascii: ":"))
                reader.skipWhitespace()
                let value = try reader.readValue()
                try body(name, value)
                reader.skipWhitespace()
                guard let next = reader.next() else { throw Malformed(reason: "unterminated object") }
                if next == UInt8(ascii: "}") { break }
                guard next == UInt8(ascii: ",") else { throw Malformed(reason: "expected , or }") }
            }
        }
        reader.skipWhitespace()
        guard reader.index == reader.bytes.count else {
            throw Malformed(reason: "data after the JSON object")
        }
    }

    // MARK: Values

    private mutating func readValue() throws -> Value {
        switch peek() {
        case UInt8(ascii: "\""): return .string(try readString())
        case UInt8(ascii: "["): return try readArray()
        case UInt8(ascii: "{"):
            try skipComposite(depth: 1)
            return .other
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try expectLiteral("null")
            return .null
        default: return .number(try readNumber())
        }
    }

    /// A top-level array: `.stringArray` when every element is a string, else `.other`.
    private mutating func readArray() throws -> Value {
        let start = index
        index += 1
        var strings: [String] = []
        skipWhitespace()
        if peek() == UInt8(ascii: "]") {
            index += 1
            return .stringArray([])
        }
        while true {
            skipWhitespace()
            guard peek() == UInt8(ascii: "\"") else {
                index = start
                try skipComposite(depth: 1)
                return .other
            }
            strings.append(try readString())
            skipWhitespace()
            guard let next = next() else { throw Malformed(reason: "unterminated array") }
            if next == UInt8(ascii: "]") { return .stringArray(strings) }
            guard next == UInt8(ascii: ",") else { throw Malformed(reason: "expected , or ]") }
        }
    }

    /// Validates and skips an object or array starting at `index`.
    private mutating func skipComposite(depth: Int) throws {
        guard depth <= 32 else { throw Malformed(reason: "nesting deeper than 32") }
        let open = next()
        let close = open == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
        skipWhitespace()
        if peek() == close {
            index += 1
            return
        }
        while true {
            skipWhitespace()
            if open == UInt8(ascii: "{") {
                _ = try readString()
                skipWhitespace()
                try expect(UInt8(ascii: ":"))
                skipWhitespace()
            }
            if peek() == UInt8(ascii: "{") || peek() == UInt8(ascii: "[") {
                try skipComposite(depth: depth + 1)
            } else {
                _ = try readValue()
            }
            skipWhitespace()
            guard let next = next() else { throw Malformed(reason: "unterminated value") }
            if next == close { return }
            guard next == UInt8(ascii: ",") else { throw Malformed(reason: "expected a separator") }
        }
    }

    /// RFC 8259 §6: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    private mutating func readNumber() throws -> Double {
        let start = index
        if peek() == UInt8(ascii: "-") { index += 1 }
        guard let first = peek(), isDigit(first) else { throw Malformed(reason: "invalid value") }
        index += 1
        if first != UInt8(ascii: "0") { skipDigits() }
        if peek() == UInt8(ascii: ".") {
            index += 1
            guard let digit = peek(), isDigit(digit) else { throw Malformed(reason: "invalid number") }
            skipDigits()
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            index += 1
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { index += 1 }
            guard let digit = peek(), isDigit(digit) else { throw Malformed(reason: "invalid number") }
            skipDigits()
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        guard let value = Double(text), value.isFinite else { throw Malformed(reason: "invalid number") }
        return value
    }

    /// RFC 8259 §7 string, unescaped; invalid UTF-8 and lone surrogates are rejected.
    private mutating func readString() throws -> String {
        try expect(UInt8(ascii: "\""))
        let start = index
        // Fast path: no escapes; ASCII needs no UTF-8 validation.
        var ascii = true
        while let byte = peek(), byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\") {
            guard byte >= 0x20 else { throw Malformed(reason: "control character in a string") }
            if byte >= 0x80 { ascii = false }
            index += 1
        }
        guard let stop = peek() else { throw Malformed(reason: "unterminated string") }
        if stop == UInt8(ascii: "\"") {
            let end = index
            index += 1
            if ascii {
                return bytes.withUnsafeBufferPointer {
                    String(decoding: UnsafeBufferPointer(rebasing: $0[start..<end]), as: UTF8.self)
                }
            }
            guard let text = String(validating: bytes[start..<end], as: UTF8.self) else {
                throw Malformed(reason: "invalid UTF-8")
            }
            return text
        }
        var utf8 = Array(bytes[start..<index])
        while let byte = next() {
            switch byte {
            case UInt8(ascii: "\""):
                guard let text = String(validating: utf8, as: UTF8.self) else {
                    throw Malformed(reason: "invalid UTF-8")
                }
                return text
            case UInt8(ascii: "\\"):
                try appendEscape(to: &utf8)
            case ..<0x20:
                throw Malformed(reason: "control character in a string")
            default:
                utf8.append(byte)
            }
        }
        throw Malformed(reason: "unterminated string")
    }

    private mutating func appendEscape(to utf8: inout [UInt8]) throws {
        guard let escaped = next() else { throw Malformed(reason: "unterminated escape") }
        switch escaped {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(escaped)
        case UInt8(ascii: "b"): utf8.append(0x08)
        case UInt8(ascii: "f"): utf8.append(0x0C)
        case UInt8(ascii: "n"): utf8.append(0x0A)
        case UInt8(ascii: "r"): utf8.append(0x0D)
        case UInt8(ascii: "t"): utf8.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try readHex4()
            if (0xD800...0xDBFF).contains(scalar) {
                guard next() == UInt8(ascii: "\\"), next() == UInt8(ascii: "u") else {
                    throw Malformed(reason: "lone surrogate")
                }
                let low = try readHex4()
                guard (0xDC00...0xDFFF).contains(low) else { throw Malformed(reason: "lone surrogate") }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(scalar) {
                throw Malformed(reason: "lone surrogate")
            }
            guard let unicode = Unicode.Scalar(scalar) else { throw Malformed(reason: "invalid escape") }
            utf8.append(contentsOf: Array(String(Character(unicode)).utf8))
        default:
            throw Malformed(reason: "invalid escape")
        }
    }

    private mutating func readHex4() throws -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = next() else { throw Malformed(reason: "unterminated escape") }
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw Malformed(reason: "invalid \\u escape")
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    // MARK: Bytes

    private func peek() -> UInt8? {
        index < bytes.count ? bytes[index] : nil
    }

    private mutating func next() -> UInt8? {
        guard index < bytes.count else { return nil }
        defer { index += 1 }
        return bytes[index]
    }

    private mutating func expect(_ byte: UInt8) throws {
        guard next() == byte else { throw Malformed(reason: "expected \(Character(Unicode.Scalar(byte)))") }
    }

    private mutating func expectLiteral(_ literal: StaticString) throws {
        let count = literal.utf8CodeUnitCount
        guard index + count <= bytes.count else { throw Malformed(reason: "invalid literal") }
        for offset in 0..<count where bytes[index + offset] != literal.utf8Start[offset] {
            throw Malformed(reason: "invalid literal")
        }
        index += count
    }

    private mutating func skipWhitespace() {
        while let byte = peek(),
            byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
        {
            index += 1
        }
    }

    private mutating func skipDigits() {
        while let byte = peek(), isDigit(byte) { index += 1 }
    }

    private func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }
}

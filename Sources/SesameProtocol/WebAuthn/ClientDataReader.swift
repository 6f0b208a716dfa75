import Foundation

/// A strict reader of `clientDataJSON` (WebAuthn §5.8.1, RFC 8259): one object whose `type`,
/// `challenge`, `origin` and `topOrigin` are strings and `crossOrigin` a boolean; other members
/// are skipped whatever their value (§5.8.1.2: the format is extensible). Refused: anything that
/// is not well-formed JSON, text that is not UTF-8, a repeated member, nesting deeper than 16,
/// input over 64 KiB. A general JSON decoder costs several microseconds for these ~150 bytes,
/// which is most of what a passkey assertion costs besides its signature.
enum ClientDataReader {
    static let maximumLength = 64 * 1024
    static let maximumDepth = 16

    static func read(_ data: Data) -> CollectedClientData? {
        guard data.count <= maximumLength else { return nil }
        return data.withUnsafeBytes { raw -> CollectedClientData? in
            var reader = Reader(bytes: raw.bindMemory(to: UInt8.self))
            return reader.document()
        }
    }

    private struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0

        mutating func document() -> CollectedClientData? {
            skipSpace()
            guard take(UInt8(ascii: "{")) else { return nil }
            var seen = Set<String>()
            var type: String?
            var challenge: String?
            var origin: String?
            var topOrigin: String?
            var crossOrigin: Bool?
            skipSpace()
            if !take(UInt8(ascii: "}")) {
                while true {
                    skipSpace()
                    guard let key = string(), seen.insert(key).inserted else { return nil }
                    skipSpace()
                    guard take(UInt8(ascii: ":")) else { return nil }
                    skipSpace()
                    switch key {
                    case "type": guard let value = string() else { return nil }; type = value
                    case "challenge": guard let value = string() else { return nil }; challenge = value
                    case "origin": guard let value = string() else { return nil }; origin = value
                    case "topOrigin": guard let value = string() else { return nil }; topOrigin = value
                    case "crossOrigin":
                        if literal("true") { crossOrigin = true } else if literal("false") { crossOrigin = false } else { return nil }
                    default: guard skipValue(depth: 1) else { return nil }
                    }
                    skipSpace()
                    if take(UInt8(ascii: ",")) { continue }
                    guard take(UInt8(ascii: "}")) else { return nil }
                    break
                }
            }
            skipSpace()
            guard index == bytes.count, let type, let challenge, let origin else { return nil }
            return CollectedClientData(type: type, challenge: challenge, origin: origin, crossOrigin: crossOrigin, topOrigin: topOrigin)
        }

        mutating func take(_ byte: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        mutating func skipSpace() {
            while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        }

        mutating func literal(_ word: StaticString) -> Bool {
            let count = word.utf8CodeUnitCount
            guard index + count <= bytes.count else { return false }
            for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] { return false }
            index += count
            return true
        }

        /// A string (RFC 8259 §7): escapes decoded, control characters refused, UTF-8 checked.
        mutating func string() -> String? {
            guard take(UInt8(ascii: "\"")) else { return nil }
            var out: [UInt8] = []
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                switch byte {
                case UInt8(ascii: "\""):
                    return String(validating: out, as: UTF8.self)
                case UInt8(ascii: "\\"):
                    guard index < bytes.count else { return nil }
                    let escape = bytes[index]
                    index += 1
                    switch escape {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(escape)
                    case UInt8(ascii: "b"): out.append(0x08)
                    case UInt8(ascii: "f"): out.append(0x0C)
                    case UInt8(ascii: "n"): out.append(0x0A)
                    case UInt8(ascii: "r"): out.append(0x0D)
                    case UInt8(ascii: "t"): out.append(0x09)
                    case UInt8(ascii: "u"):
                        guard var scalar = hex4() else { return nil }
                        if (0xD800..<0xDC00).contains(scalar) {
                            guard take(UInt8(ascii: "\\")), take(UInt8(ascii: "u")), let low = hex4(), (0xDC00..<0xE000).contains(low)
                            else { return nil }
                            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                        } else if (0xDC00..<0xE000).contains(scalar) {
                            return nil
                        }
                        guard let unicode = Unicode.Scalar(scalar) else { return nil }
                        out.append(contentsOf: Array(String(Character(unicode)).utf8))
                    default: return nil
                    }
                case 0x00..<0x20:
                    return nil
                default:
                    out.append(byte)
                }
            }
            return nil
        }

        mutating func hex4() -> UInt32? {
            guard index + 4 <= bytes.count else { return nil }
            var value: UInt32 = 0
            for _ in 0..<4 {
                let byte = bytes[index]
                index += 1
                let digit: UInt8
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
                default: return nil
                }
                value = value << 4 | UInt32(digit)
            }
            return value
        }

        /// Skips any JSON value (members the reader does not use).
        mutating func skipValue(depth: Int) -> Bool {
            guard depth <= ClientDataReader.maximumDepth, index < bytes.count else { return false }
            switch bytes[index] {
            case UInt8(ascii: "\""): return string() != nil
            case UInt8(ascii: "t"): return literal("true")
            case UInt8(ascii: "f"): return literal("false")
            case UInt8(ascii: "n"): return literal("null")
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                let close = bytes[index] == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
                let isObject = close == UInt8(ascii: "}")
                index += 1
                skipSpace()
                if take(close) { return true }
                while true {
                    skipSpace()
                    if isObject {
                        guard string() != nil else { return false }
                        skipSpace()
                        guard take(UInt8(ascii: ":")) else { return false }
                        skipSpace()
                    }
                    guard skipValue(depth: depth + 1) else { return false }
                    skipSpace()
                    if take(UInt8(ascii: ",")) { continue }
                    return take(close)
                }
            default: return number()
            }
        }

        /// RFC 8259 §6: `-? int frac? exp?`.
        mutating func number() -> Bool {
            _ = take(UInt8(ascii: "-"))
            func digits(_ reader: inout Reader) -> Int {
                var count = 0
                while reader.index < reader.bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(reader.bytes[reader.index]) {
                    reader.index += 1
                    count += 1
                }
                return count
            }
            if take(UInt8(ascii: "0")) {
                // No leading zeros.
            } else if digits(&self) == 0 {
                return false
            }
            if take(UInt8(ascii: ".")), digits(&self) == 0 { return false }
            if take(UInt8(ascii: "e")) || take(UInt8(ascii: "E")) {
                if !take(UInt8(ascii: "+")) { _ = take(UInt8(ascii: "-")) }
                if digits(&self) == 0 { return false }
            }
            return true
        }
    }
}

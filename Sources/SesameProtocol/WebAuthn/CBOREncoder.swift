import Foundation

/// CBOR in CTAP2's canonical form (RFC 8949 §4.2.1 core deterministic encoding): shortest
/// arguments, definite lengths, map keys sorted by their encoded bytes. What an authenticator
/// writes (the SDK's software authenticator, tests); floats are written as doubles, which
/// WebAuthn never uses.
package enum CBOREncoder {
    /// The deterministic encoding of `item` (RFC 8949 §4.2.1).
    package static func encode(_ item: CBOR) -> Data {
        var out: [UInt8] = []
        write(item, into: &out)
        return Data(out)
    }

    private static func head(_ major: UInt8, _ value: UInt64, into out: inout [UInt8]) {
        let type = major << 5
        switch value {
        case 0...23: out.append(type | UInt8(value))
        case 24...0xff: out += [type | 24, UInt8(value)]
        case 0x100...0xffff: out.append(type | 25); out += bigEndian(value, 2)
        case 0x1_0000...0xffff_ffff: out.append(type | 26); out += bigEndian(value, 4)
        default: out.append(type | 27); out += bigEndian(value, 8)
        }
    }

    private static func bigEndian(_ value: UInt64, _ count: Int) -> [UInt8] {
        (0..<count).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }

    private static func write(_ item: CBOR, into out: inout [UInt8]) {
        switch item {
        case .unsigned(let value): head(0, value, into: &out)
        case .negative(let value): head(1, value, into: &out)
        case .bytes(let data): head(2, UInt64(data.count), into: &out); out += data
        case .text(let text): head(3, UInt64(text.utf8.count), into: &out); out += text.utf8
        case .array(let elements):
            head(4, UInt64(elements.count), into: &out)
            for element in elements { write(element, into: &out) }
        case .map(let pairs):
            head(5, UInt64(pairs.count), into: &out)
            let encoded = pairs.map { (key: [UInt8](encode($0.key)), value: $0.value) }
            for pair in encoded.sorted(by: { $0.key.lexicographicallyPrecedes($1.key) }) {
                out += pair.key
                write(pair.value, into: &out)
            }
        case .tagged(let tag, let value): head(6, tag, into: &out); write(value, into: &out)
        case .bool(let value): out.append(value ? 0xf5 : 0xf4)
        case .null: out.append(0xf6)
        case .undefined: out.append(0xf7)
        case .simple(let value): value < 24 ? out.append(0xe0 | value) : (out += [0xf8, value])
        case .float(let value): out.append(0xfb); out += bigEndian(value.bitPattern, 8)
        }
    }
}

import Foundation
import SesameProtocol
import TestSupport
import Testing

/// The strict CBOR decoder and the canonical encoder (RFC 8949) WebAuthn will use: every
/// Appendix A example, and malformed input refused by rule, quickly and without large
/// allocations.
@Suite("CBOR (RFC 8949)")
struct CBORTests {
    struct Example: Decodable {
        var hex: String
        var roundtrip: Bool
        var decoded: JSONValue?
        var diagnostic: String?
    }

    /// The JSON form of a decoded example.
    indirect enum JSONValue: Decodable, Equatable {
        case number(Double)
        case string(String)
        case bool(Bool)
        case null
        case array([JSONValue])
        case object([String: JSONValue])

        init(from decoder: any Decoder) throws {
            let c = try decoder.singleValueContainer()
            if c.decodeNil() { self = .null } else if let b = try? c.decode(Bool.self) { self = .bool(b) } else if let n = try? c.decode(Double.self) {
                self = .number(n)
            } else if let s = try? c.decode(String.self) { self = .string(s) } else if let a = try? c.decode([JSONValue].self) {
                self = .array(a)
            } else { self = .object(try c.decode([String: JSONValue].self)) }
        }
    }

    static func bytes(_ hex: String) -> Data {
        var data = Data()
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            data.append(UInt8(hex[index..<next], radix: 16)!)
            index = next
        }
        return data
    }

    /// The decoded item as the vectors' JSON shows it (`nil` where JSON cannot say).
    static func json(_ item: CBOR) -> JSONValue? {
        switch item {
        case .unsigned(let value): .number(Double(value))
        case .negative(let value): .number(-1 - Double(value))
        case .float(let value): value.isFinite ? .number(value) : nil
        case .text(let text): .string(text)
        case .bool(let value): .bool(value)
        case .null: .null
        case .array(let elements):
            elements.map(json).contains(where: { $0 == nil }) ? nil : .array(elements.compactMap(json))
        case .map(let pairs):
            pairs.allSatisfy({ if case .text = $0.key { json($0.value) != nil } else { false } })
                ? .object(Dictionary(uniqueKeysWithValues: pairs.map { (key, value) in
                    guard case .text(let name) = key else { return ("", JSONValue.null) }
                    return (name, json(value)!)
                })) : nil
        default: nil
        }
    }

    @Test("every RFC 8949 Appendix A example decodes to its value; the preferred-form ones re-encode byte for byte")
    func appendixA() throws {
        let examples = try JSONDecoder().decode([Example].self, from: try FixtureFiles.data("vectors/cbor-rfc8949-appendix-a.json"))
        #expect(examples.count == 82)
        let decoder = CBORDecoder(allowsIndefiniteLengths: true)
        var compared = 0
        var reencoded = 0
        for example in examples {
            // RFC 7049's simple(24) (f818): RFC 8949 §3.3 made it not well-formed (refused below).
            if example.hex == "f818" { continue }
            let item = try decoder.decode(Self.bytes(example.hex))
            if let expected = example.decoded, let actual = Self.json(item) {
                #expect(actual == expected, "\(example.hex)")
                compared += 1
            }
            let isFloat = example.hex.hasPrefix("f9") || example.hex.hasPrefix("fa") || example.hex.hasPrefix("fb")
            if example.roundtrip, !isFloat {
                #expect(CBOREncoder.encode(item) == Self.bytes(example.hex), "\(example.hex)")
                reencoded += 1
            }
        }
        #expect(compared == 56 && reencoded == 48, "\(compared) compared, \(reencoded) re-encoded")
        // Spot checks of what JSON cannot show.
        #expect(try decoder.decode(Self.bytes("c249010000000000000000")) == .tagged(2, .bytes(Self.bytes("010000000000000000"))))
        #expect(try decoder.decode(Self.bytes("f97e00")) == .float(.nan))
        #expect(try decoder.decode(Self.bytes("f0")) == .simple(16))
        #expect(try decoder.decode(Self.bytes("f8ff")) == .simple(255))
        #expect(try decoder.decode(Self.bytes("5f42010243030405ff")) == .bytes(Self.bytes("0102030405")))
    }

    @Test("malformed input is refused with its rule, without allocating what a length claims")
    func malformed() {
        let strict = CBORDecoder()
        let cases: [(String, CBORError)] = [
            ("", .truncated(at: 0)),
            ("1a0000", .truncated(at: 1)),
            ("1c", .reservedAdditionalInformation(at: 0)),
            ("5bffffffffffffffff", .lengthBeyondInput(at: 0)),
            ("9bffffffffffffffff00", .lengthBeyondInput(at: 0)),
            ("bbffffffffffffffff", .lengthBeyondInput(at: 0)),
            ("62c328", .invalidUTF8(at: 0)),
            ("ff", .unexpectedBreak(at: 0)),
            ("5f4101ff", .indefiniteLengthNotAllowed(at: 0)),
            ("f818", .badSimpleValue(at: 0)),
            ("a201020103", .duplicateMapKey(at: 3)),
            ("0000", .trailingBytes(at: 1)),
            ("1f", .reservedAdditionalInformation(at: 0)),
        ]
        for (hex, expected) in cases {
            #expect(throws: expected, "\(hex)") { try strict.decode(Self.bytes(hex)) }
        }
        let lenient = CBORDecoder(allowsIndefiniteLengths: true)
        #expect(throws: CBORError.badChunk(at: 1)) { try lenient.decode(Self.bytes("5f6161ff")) }
        let deep = Data(repeating: 0x81, count: 10_000) + Data([0x00])
        #expect(throws: CBORError.tooDeep(limit: 16)) { try strict.decode(deep) }
        let many = Data([0x9a, 0x00, 0x01, 0x86, 0xa0]) + Data(repeating: 0x00, count: 100_000)
        #expect(throws: CBORError.tooManyItems(limit: 10_000)) { try strict.decode(many) }
    }

    @Test("a COSE-shaped map: integer keys in canonical order, read back by key, and the prefix length of an item followed by other bytes")
    func coseShape() throws {
        let key = CBOR.map([
            (.negative(1), .unsigned(1)), (.unsigned(3), .negative(6)), (.unsigned(1), .unsigned(2)),
            (.negative(2), .bytes(Data(repeating: 7, count: 32))),
        ])
        let encoded = CBOREncoder.encode(key)
        #expect(encoded.prefix(5) == Self.bytes("a4010203"  + "26"), "keys sorted: 1, 3, -1, -2")
        let decoded = try CBORDecoder().decode(encoded)
        #expect(decoded[.unsigned(3)]?.int == -7 || decoded[.unsigned(3)]?.int == -6)
        #expect(decoded[.negative(1)] == .unsigned(1))
        let (item, length) = try CBORDecoder().decodePrefix(encoded + Data([0xa0]))
        #expect(item == decoded && length == encoded.count)
    }
}

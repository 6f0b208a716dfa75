import Foundation

/// A strict, bounded CBOR decoder (RFC 8949 §3, §5.3) for input from the network: WebAuthn
/// attestation objects and COSE keys. Refuses every not-well-formed item, with the rule
/// (``CBORError``); a length is compared with what is left of the input before anything is
/// allocated; nesting depth and the number of items are capped, so hostile input costs at most
/// a linear pass. Duplicate map keys are refused (§5.6: a valid map has unique keys).
package struct CBORDecoder: Sendable {
    /// Deepest nesting of arrays, maps and tags accepted (the top-level item is depth 0); default 16.
    package var maximumDepth: Int
    /// Most data items in one input, map keys and string chunks included; default 10,000.
    package var maximumItems: Int
    /// Whether indefinite-length strings, arrays and maps are accepted (CTAP2's canonical form,
    /// which WebAuthn authenticators use, has none).
    package var allowsIndefiniteLengths: Bool

    /// A decoder with these bounds; the defaults suit attestation objects and COSE keys.
    package init(maximumDepth: Int = 16, maximumItems: Int = 10_000, allowsIndefiniteLengths: Bool = false) {
        self.maximumDepth = maximumDepth
        self.maximumItems = maximumItems
        self.allowsIndefiniteLengths = allowsIndefiniteLengths
    }

    /// The one item `data` holds; trailing bytes are refused.
    package func decode(_ data: Data) throws(CBORError) -> CBOR {
        var reader = Reader(bytes: [UInt8](data), decoder: self)
        let item = try reader.item(depth: 0)
        guard reader.offset == reader.bytes.count else { throw .trailingBytes(at: reader.offset) }
        return item
    }

    /// The first item of `data` and how many bytes it took (an authenticator data's trailing
    /// extensions follow its credential public key, WebAuthn §6.1).
    package func decodePrefix(_ data: Data) throws(CBORError) -> (item: CBOR, length: Int) {
        var reader = Reader(bytes: [UInt8](data), decoder: self)
        let item = try reader.item(depth: 0)
        return (item, reader.offset)
    }

    private struct Reader {
        let bytes: [UInt8]
        let decoder: CBORDecoder
        var offset = 0
        var items = 0

        init(bytes: [UInt8], decoder: CBORDecoder) {
            self.bytes = bytes
            self.decoder = decoder
        }

        mutating func byte() throws(CBORError) -> UInt8 {
            guard offset < bytes.count else { throw .truncated(at: offset) }
            defer { offset += 1 }
            return bytes[offset]
        }

        mutating func uint(_ count: Int) throws(CBORError) -> UInt64 {
            guard bytes.count - offset >= count else { throw .truncated(at: offset) }
            var value: UInt64 = 0
            for index in offset..<(offset + count) { value = value << 8 | UInt64(bytes[index]) }
            offset += count
            return value
        }

        /// The argument of the head (§3): `nil` for an indefinite length (additional info 31).
        mutating func argument(_ info: UInt8, at start: Int) throws(CBORError) -> UInt64? {
            switch info {
            case 0...23: return UInt64(info)
            case 24: return try uint(1)
            case 25: return try uint(2)
            case 26: return try uint(4)
            case 27: return try uint(8)
            case 31: return nil
            default: throw .reservedAdditionalInformation(at: start)
            }
        }

        /// A length that the rest of the input can hold (each element takes at least one byte).
        mutating func length(_ value: UInt64, at start: Int) throws(CBORError) -> Int {
            guard value <= UInt64(bytes.count - offset) else { throw .lengthBeyondInput(at: start) }
            return Int(value)
        }

        mutating func count() throws(CBORError) {
            items += 1
            guard items <= decoder.maximumItems else { throw .tooManyItems(limit: decoder.maximumItems) }
        }

        mutating func item(depth: Int) throws(CBORError) -> CBOR {
            guard depth <= decoder.maximumDepth else { throw .tooDeep(limit: decoder.maximumDepth) }
            try count()
            let start = offset
            let head = try byte()
            let major = head >> 5
            let info = head & 0x1f
            if major == 7 { return try simple(info, at: start) }
            let argument = try argument(info, at: start)
            if argument == nil, !decoder.allowsIndefiniteLengths, major != 0, major != 1, major != 6 {
                throw .indefiniteLengthNotAllowed(at: start)
            }
            switch major {
            case 0:
                guard let argument else { throw .reservedAdditionalInformation(at: start) }
                return .unsigned(argument)
            case 1:
                guard let argument else { throw .reservedAdditionalInformation(at: start) }
                return .negative(argument)
            case 2:
                return .bytes(Data(try string(argument, major: 2, at: start)))
            case 3:
                let raw = try string(argument, major: 3, at: start)
                guard let text = String(validating: raw, as: UTF8.self) else { throw .invalidUTF8(at: start) }
                return .text(text)
            case 4:
                var elements: [CBOR] = []
                if let argument {
                    let count = try length(argument, at: start)
                    elements.reserveCapacity(count)
                    for _ in 0..<count { elements.append(try item(depth: depth + 1)) }
                } else {
                    while try !isBreak() { elements.append(try item(depth: depth + 1)) }
                }
                return .array(elements)
            case 5:
                var pairs: [(key: CBOR, value: CBOR)] = []
                var keys = Set<CBOR>()
                func add(_ reader: inout Reader) throws(CBORError) {
                    let keyStart = reader.offset
                    let key = try reader.item(depth: depth + 1)
                    guard keys.insert(key).inserted else { throw .duplicateMapKey(at: keyStart) }
                    pairs.append((key, try reader.item(depth: depth + 1)))
                }
                if let argument {
                    let count = try length(argument, at: start)
                    for _ in 0..<count { try add(&self) }
                } else {
                    while try !isBreak() { try add(&self) }
                }
                return .map(pairs)
            default:  // 6
                guard let argument else { throw .reservedAdditionalInformation(at: start) }
                return .tagged(argument, try item(depth: depth + 1))
            }
        }

        /// A byte or text string's bytes; indefinite ones are their definite chunks joined.
        mutating func string(_ argument: UInt64?, major: UInt8, at start: Int) throws(CBORError) -> [UInt8] {
            if let argument {
                let count = try length(argument, at: start)
                defer { offset += count }
                return Array(bytes[offset..<(offset + count)])
            }
            var joined: [UInt8] = []
            while try !isBreak() {
                let chunkStart = offset
                try count()
                let head = try byte()
                guard head >> 5 == major, let chunk = try self.argument(head & 0x1f, at: chunkStart) else {
                    throw .badChunk(at: chunkStart)
                }
                let count = try length(chunk, at: chunkStart)
                joined += bytes[offset..<(offset + count)]
                offset += count
            }
            return joined
        }

        /// Consumes a break code when one is next.
        mutating func isBreak() throws(CBORError) -> Bool {
            guard offset < bytes.count else { throw .truncated(at: offset) }
            if bytes[offset] == 0xff {
                offset += 1
                return true
            }
            return false
        }

        mutating func simple(_ info: UInt8, at start: Int) throws(CBORError) -> CBOR {
            switch info {
            case 20: return .bool(false)
            case 21: return .bool(true)
            case 22: return .null
            case 23: return .undefined
            case 0...19: return .simple(info)
            case 24:
                let value = try byte()
                guard value >= 32 else { throw .badSimpleValue(at: start) }
                return .simple(value)
            case 25: return .float(Self.half(UInt16(try uint(2))))
            case 26: return .float(Double(Float(bitPattern: UInt32(try uint(4)))))
            case 27: return .float(Double(bitPattern: try uint(8)))
            case 31: throw .unexpectedBreak(at: start)
            default: throw .reservedAdditionalInformation(at: start)
            }
        }

        /// IEEE 754 binary16 (RFC 8949 Appendix D).
        static func half(_ bits: UInt16) -> Double {
            let exponent = Int(bits >> 10) & 0x1f
            let mantissa = Double(bits & 0x3ff)
            let magnitude: Double
            switch exponent {
            case 0: magnitude = mantissa * pow(2, -24)
            case 31: magnitude = mantissa == 0 ? .infinity : .nan
            default: magnitude = (mantissa + 1024) * pow(2, Double(exponent - 25))
            }
            return bits & 0x8000 != 0 ? -magnitude : magnitude
        }
    }
}

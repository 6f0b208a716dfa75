import Foundation

/// A CBOR data item (RFC 8949 §3), as WebAuthn's attestation objects and COSE keys use it
/// (WebAuthn Level 3 §6.5, RFC 9052 §7).
package indirect enum CBOR: Sendable, Hashable {
    /// Major type 0.
    case unsigned(UInt64)
    /// Major type 1: the value `-1 - n`.
    case negative(UInt64)
    /// Major type 2: a byte string.
    case bytes(Data)
    /// Major type 3: a text string, valid UTF-8.
    case text(String)
    /// Major type 4: an array of data items.
    case array([CBOR])
    /// Major type 5, in the order the encoding gave (keys unique in a well-formed map).
    case map([(key: CBOR, value: CBOR)])
    /// Major type 6 (§3.4): a tag number and the item it tags.
    case tagged(UInt64, CBOR)
    /// Simple values 20 (`false`) and 21 (`true`) (§3.3).
    case bool(Bool)
    /// Simple value 22 (§3.3).
    case null
    /// Simple value 23 (§3.3).
    case undefined
    /// Simple values other than false, true, null and undefined.
    case simple(UInt8)
    /// Major type 7 half-, single- or double-precision float (§3.3), widened to a `Double`.
    case float(Double)

    /// The integer value of major types 0 and 1 when it fits an `Int64`.
    package var int: Int64? {
        switch self {
        case .unsigned(let value): value <= UInt64(Int64.max) ? Int64(value) : nil
        case .negative(let value): value <= UInt64(Int64.max) ? -1 - Int64(value) : nil
        default: nil
        }
    }

    /// The value of `key` in a map.
    package subscript(key: CBOR) -> CBOR? {
        guard case .map(let pairs) = self else { return nil }
        return pairs.first { $0.key == key }?.value
    }

    /// Structural equality: maps compare pair by pair in encoded order, and NaN equals NaN.
    package static func == (lhs: CBOR, rhs: CBOR) -> Bool {
        switch (lhs, rhs) {
        case (.unsigned(let a), .unsigned(let b)), (.negative(let a), .negative(let b)): a == b
        case (.bytes(let a), .bytes(let b)): a == b
        case (.text(let a), .text(let b)): a == b
        case (.array(let a), .array(let b)): a == b
        case (.map(let a), .map(let b)): a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        case (.tagged(let t, let a), .tagged(let u, let b)): t == u && a == b
        case (.bool(let a), .bool(let b)): a == b
        case (.null, .null), (.undefined, .undefined): true
        case (.simple(let a), .simple(let b)): a == b
        case (.float(let a), .float(let b)): a == b || (a.isNaN && b.isNaN)
        default: false
        }
    }

    /// Hashes what `==` compares (every NaN alike), so items can serve as set members and keys.
    package func hash(into hasher: inout Hasher) {
        switch self {
        case .unsigned(let value): hasher.combine(0); hasher.combine(value)
        case .negative(let value): hasher.combine(1); hasher.combine(value)
        case .bytes(let value): hasher.combine(2); hasher.combine(value)
        case .text(let value): hasher.combine(3); hasher.combine(value)
        case .array(let value): hasher.combine(4); hasher.combine(value)
        case .map(let pairs): hasher.combine(5); for pair in pairs { hasher.combine(pair.key); hasher.combine(pair.value) }
        case .tagged(let tag, let value): hasher.combine(6); hasher.combine(tag); hasher.combine(value)
        case .bool(let value): hasher.combine(7); hasher.combine(value)
        case .null: hasher.combine(8)
        case .undefined: hasher.combine(9)
        case .simple(let value): hasher.combine(10); hasher.combine(value)
        case .float(let value): hasher.combine(11); hasher.combine(value.isNaN ? Double.nan.bitPattern : value.bitPattern)
        }
    }
}

/// Why CBOR input was refused; each names the rule (RFC 8949 §3, §5.3 "not well-formed").
package enum CBORError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The input ends inside an item.
    case truncated(at: Int)
    /// Additional information 28–30 (§3).
    case reservedAdditionalInformation(at: Int)
    /// A length larger than what is left of the input: refused before anything is allocated.
    case lengthBeyondInput(at: Int)
    /// Nesting deeper than the decoder's `maximumDepth`.
    case tooDeep(limit: Int)
    /// More data items than the decoder's `maximumItems`.
    case tooManyItems(limit: Int)
    /// A text string (major type 3) that is not valid UTF-8 (§3.1).
    case invalidUTF8(at: Int)
    /// A "break" outside an indefinite-length item, or an indefinite length where not allowed.
    case unexpectedBreak(at: Int)
    /// An indefinite-length string, array or map (§3.2.2, §3.2.3) while the decoder
    /// does not allow them.
    case indefiniteLengthNotAllowed(at: Int)
    /// A chunk of an indefinite-length string of another major type (§3.2.3).
    case badChunk(at: Int)
    /// Simple value 24 with a value below 32 (§3.3).
    case badSimpleValue(at: Int)
    /// A map key equal to an earlier key of the same map (§5.6).
    case duplicateMapKey(at: Int)
    /// Bytes after the one item the input must hold.
    case trailingBytes(at: Int)

    /// The rule broken and the byte offset, for logs and error messages.
    package var description: String {
        switch self {
        case .truncated(let at): "CBOR ends early (at byte \(at))"
        case .reservedAdditionalInformation(let at): "reserved additional information at byte \(at)"
        case .lengthBeyondInput(let at): "a length at byte \(at) is larger than the input"
        case .tooDeep(let limit): "CBOR nested deeper than \(limit) levels"
        case .tooManyItems(let limit): "CBOR holds more than \(limit) items"
        case .invalidUTF8(let at): "a text string at byte \(at) is not UTF-8"
        case .unexpectedBreak(let at): "a break code at byte \(at) outside an indefinite-length item"
        case .indefiniteLengthNotAllowed(let at): "an indefinite length at byte \(at), which this use does not allow"
        case .badChunk(let at): "a chunk at byte \(at) of another type than its indefinite-length string"
        case .badSimpleValue(let at): "a two-byte simple value below 32 at byte \(at)"
        case .duplicateMapKey(let at): "a map key repeated at byte \(at)"
        case .trailingBytes(let at): "bytes after the CBOR item, from byte \(at)"
        }
    }
}

import Foundation

/// Base64url encoding without padding (RFC 4648 §5, as used by RFC 7515 §2 and RFC 7636 §3).
///
/// Table-driven over bytes: it runs on every token issued and every ID token validated
/// (`at_hash`, JWS segments), so it avoids Foundation's base64 + string replacement round trip.
public enum Base64URL {
    private static let alphabet: [UInt8] = Array(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    private static let decodingTable: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (index, char) in alphabet.enumerated() { table[Int(char)] = UInt8(index) }
        return table
    }()

    /// Encodes bytes as unpadded base64url.
    public static func encode<S: Sequence>(_ bytes: S) -> String where S.Element == UInt8 {
        if let encoded = bytes.withContiguousStorageIfAvailable({ encode(buffer: $0) }) {
            return encoded
        }
        return Array(bytes).withUnsafeBufferPointer { encode(buffer: $0) }
    }

    /// Encodes the bytes in `source` as unpadded base64url.
    public static func encode(buffer source: UnsafeBufferPointer<UInt8>) -> String {
        let count = source.count
        let outputCount = count / 3 * 4 + (count % 3 == 0 ? 0 : count % 3 + 1)
        return alphabet.withUnsafeBufferPointer { alphabet in
            String(unsafeUninitializedCapacity: outputCount) { buffer in
                var out = 0
                var index = 0
                while index + 3 <= count {
                    let value = UInt32(source[index]) << 16 | UInt32(source[index + 1]) << 8
                        | UInt32(source[index + 2])
                    buffer[out] = alphabet[Int(value >> 18 & 63)]
                    buffer[out + 1] = alphabet[Int(value >> 12 & 63)]
                    buffer[out + 2] = alphabet[Int(value >> 6 & 63)]
                    buffer[out + 3] = alphabet[Int(value & 63)]
                    out += 4
                    index += 3
                }
                let rest = count - index
                if rest > 0 {
                    var value = UInt32(source[index]) << 16
                    if rest == 2 { value |= UInt32(source[index + 1]) << 8 }
                    buffer[out] = alphabet[Int(value >> 18 & 63)]
                    buffer[out + 1] = alphabet[Int(value >> 12 & 63)]
                    out += 2
                    if rest == 2 {
                        buffer[out] = alphabet[Int(value >> 6 & 63)]
                        out += 1
                    }
                }
                return out
            }
        }
    }

    /// Decodes unpadded (or padded) base64url; `nil` if the text is not base64url.
    public static func decode(_ text: String) -> Data? {
        var utf8 = Array(text.utf8)
        var padding = 0
        while utf8.last == UInt8(ascii: "="), padding < 2 {
            utf8.removeLast()
            padding += 1
        }
        if padding > 0, (utf8.count + padding) % 4 != 0 { return nil }
        return decode(bytes: utf8[...]).map { Data($0) }
    }

    /// Decodes unpadded base64url bytes (a JWS segment, RFC 7515 §7.1); `nil` when any byte is
    /// outside the base64url alphabet or the length is impossible.
    public static func decode(bytes input: ArraySlice<UInt8>) -> [UInt8]? {
        let count = input.count
        if count % 4 == 1 { return nil }
        let outputCount = count / 4 * 3 + max(0, count % 4 - 1)
        return input.withUnsafeBufferPointer { source -> [UInt8]? in
            decodingTable.withUnsafeBufferPointer { table -> [UInt8]? in
                var valid = true
                let output = [UInt8](unsafeUninitializedCapacity: outputCount) { buffer, initialized in
                    var out = 0
                    var index = 0
                    while index + 4 <= count {
                        let a = table[Int(source[index])], b = table[Int(source[index + 1])]
                        let c = table[Int(source[index + 2])], d = table[Int(source[index + 3])]
                        if (a | b | c | d) & 0xC0 != 0 { valid = false; break }
                        let value = UInt32(a) << 18 | UInt32(b) << 12 | UInt32(c) << 6 | UInt32(d)
                        buffer[out] = UInt8(truncatingIfNeeded: value >> 16)
                        buffer[out + 1] = UInt8(truncatingIfNeeded: value >> 8)
                        buffer[out + 2] = UInt8(truncatingIfNeeded: value)
                        out += 3
                        index += 4
                    }
                    let rest = count - index
                    if valid && rest >= 2 {
                        let a = table[Int(source[index])], b = table[Int(source[index + 1])]
                        let c = rest == 3 ? table[Int(source[index + 2])] : 0
                        if (a | b | c) & 0xC0 != 0 {
                            valid = false
                        } else {
                            let value = UInt32(a) << 18 | UInt32(b) << 12 | UInt32(c) << 6
                            buffer[out] = UInt8(truncatingIfNeeded: value >> 16)
                            out += 1
                            if rest == 3 {
                                buffer[out] = UInt8(truncatingIfNeeded: value >> 8)
                                out += 1
                            }
                        }
                    }
                    initialized = valid ? out : 0
                }
                return valid ? output : nil
            }
        }
    }
}

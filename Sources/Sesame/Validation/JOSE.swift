import Foundation

/// The JWS protected header fields the validator reads (RFC 7515 §4.1).
struct JOSEHeader: Decodable, Sendable {
    var alg: String?
    var kid: String?
    var typ: String?
    /// RFC 7515 §4.1.11: extensions the recipient must understand; Sesame understands none.
    var crit: [String]?
}

/// A compact JWS split into its parts (RFC 7515 §7.1), as byte ranges of the original token.
struct CompactJWS {
    let bytes: [UInt8]
    let firstDot: Int
    let secondDot: Int

    init?(_ token: String) {
        let bytes = Array(token.utf8)
        guard let first = bytes.firstIndex(of: UInt8(ascii: ".")),
            let second = bytes[(first + 1)...].firstIndex(of: UInt8(ascii: ".")),
            !bytes[(second + 1)...].contains(UInt8(ascii: "."))
        else { return nil }
        self.bytes = bytes
        self.firstDot = first
        self.secondDot = second
    }

    var header: ArraySlice<UInt8> { bytes[..<firstDot] }
    var payload: ArraySlice<UInt8> { bytes[(firstDot + 1)..<secondDot] }
    var signature: ArraySlice<UInt8> { bytes[(secondDot + 1)...] }
    /// `ASCII(BASE64URL(header) || '.' || BASE64URL(payload))`, what the signature covers.
    var signingInput: ArraySlice<UInt8> { bytes[..<secondDot] }
}

/// Fast unpadded base64url decoding of token segments (RFC 4648 §5), without intermediate
/// strings: ID tokens are decoded on every validation.
enum Base64URLBytes {
    private static let table: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (index, char) in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8
            .enumerated()
        {
            table[Int(char)] = UInt8(index)
        }
        return table
    }()

    static func decode(_ input: ArraySlice<UInt8>) -> [UInt8]? {
        let count = input.count
        if count % 4 == 1 { return nil }
        let outputCount = count / 4 * 3 + max(0, count % 4 - 1)
        return input.withUnsafeBufferPointer { source -> [UInt8]? in
            table.withUnsafeBufferPointer { table -> [UInt8]? in
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

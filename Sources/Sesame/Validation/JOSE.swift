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
        if input.count % 4 == 1 { return nil }
        var output = [UInt8]()
        output.reserveCapacity(input.count * 3 / 4)
        var buffer: UInt32 = 0
        var bits = 0
        for char in input {
            let value = table[Int(char)]
            if value == 0xFF { return nil }
            buffer = (buffer << 6) | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                output.append(UInt8(truncatingIfNeeded: buffer >> UInt32(bits)))
            }
        }
        return output
    }
}

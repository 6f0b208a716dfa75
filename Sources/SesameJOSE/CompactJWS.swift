import Foundation

/// A compact JWS split into its parts (RFC 7515 §7.1), as byte ranges of the original token.
package struct CompactJWS: Sendable {
    package let bytes: [UInt8]
    package let firstDot: Int
    package let secondDot: Int

    package init?(_ token: String) {
        let bytes = Array(token.utf8)
        guard let first = bytes.firstIndex(of: UInt8(ascii: ".")),
            let second = bytes[(first + 1)...].firstIndex(of: UInt8(ascii: ".")),
            !bytes[(second + 1)...].contains(UInt8(ascii: "."))
        else { return nil }
        self.bytes = bytes
        self.firstDot = first
        self.secondDot = second
    }

    package var header: ArraySlice<UInt8> { bytes[..<firstDot] }
    package var payload: ArraySlice<UInt8> { bytes[(firstDot + 1)..<secondDot] }
    package var signature: ArraySlice<UInt8> { bytes[(secondDot + 1)...] }
    /// `ASCII(BASE64URL(header) || '.' || BASE64URL(payload))`, what the signature covers.
    package var signingInput: ArraySlice<UInt8> { bytes[..<secondDot] }
}

/// The media type of a `Content-Type` header (RFC 9110 §8.3.1): `type "/" subtype`, then
/// optional whitespace (SP / HTAB) and parameters. Type and subtype are case-insensitive.
enum ContentTypeHeader {
    /// Whether `header` names `expected` (lowercase ASCII), with any parameters.
    /// Compares bytes: every token request runs this.
    static func matches(_ header: String?, _ expected: StaticString) -> Bool {
        guard let header else { return false }
        let bytes = header.utf8
        let end = bytes.firstIndex(of: UInt8(ascii: ";")) ?? bytes.endIndex
        var mediaType = bytes[bytes.startIndex..<end]
        let isWhitespace = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        while let first = mediaType.first, isWhitespace(first) { mediaType = mediaType.dropFirst() }
        while let last = mediaType.last, isWhitespace(last) { mediaType = mediaType.dropLast() }
        guard mediaType.count == expected.utf8CodeUnitCount else { return false }
        return expected.withUTF8Buffer { wanted in
            zip(mediaType, wanted).allSatisfy { got, want in
                // ASCII lowercase; non-letters are compared as they are.
                (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(got) ? (got | 0x20) == want : got == want
            }
        }
    }
}

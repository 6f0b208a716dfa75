import Foundation

/// The JWS protected header fields the validator reads (RFC 7515 §4.1).
struct JOSEHeader: Sendable {
    var alg: String?
    var kid: String?
    var typ: String?
    var crit: [String]?

    /// Reads the header with ``JWTJSONReader``: `alg`, `kid`, `typ` must be strings and
    /// `crit` an array of strings when present (RFC 7515 §4.1).
    init(json bytes: [UInt8]) throws {
        var seen: [String] = []
        try JWTJSONReader.forEachMember(in: bytes) { name, value in
            if ["alg", "kid", "typ", "crit"].contains(name) {
                guard !seen.contains(name) else {
                    throw JWTJSONReader.Malformed(reason: "duplicate header parameter \(name)")
                }
                seen.append(name)
            }
            switch (name, value) {
            case ("alg", .string(let text)): alg = text
            case ("kid", .string(let text)): kid = text
            case ("typ", .string(let text)): typ = text
            case ("crit", .stringArray(let names)): crit = names
            case ("alg", _), ("kid", _), ("typ", _), ("crit", _):
                throw JWTJSONReader.Malformed(reason: "header parameter \(name) has the wrong type")
            default: break
            }
        }
    }
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

import Foundation

/// The JWS protected header fields the validator reads (RFC 7515 §4.1).
package struct JOSEHeader: Sendable {
    package var alg: String?
    package var kid: String?
    package var typ: String?
    package var crit: [String]?

    /// Reads the header with ``JWTJSONReader``: `alg`, `kid`, `typ` must be strings and
    /// `crit` an array of strings when present (RFC 7515 §4.1).
    package init(json bytes: [UInt8]) throws {
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

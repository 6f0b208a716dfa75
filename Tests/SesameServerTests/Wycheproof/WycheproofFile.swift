import Foundation

/// A Wycheproof signature-verification file from `Tests/Fixtures/wycheproof` (C2SP/wycheproof
/// `testvectors_v1`, schemas `ecdsa_p1363_verify_schema_v1` and `rsassa_pkcs1_verify_schema_v1`),
/// decoded as far as these tests need. SesameTests has the same model (test targets share no
/// code).
struct WycheproofFile: Decodable {
    var algorithm: String
    var numberOfTests: Int
    var testGroups: [Group]

    /// One public key and the signatures to check with it.
    struct Group: Decodable {
        /// The key as a PEM SubjectPublicKeyInfo, the encoding the server reads keys in.
        var publicKeyPem: String
        /// Modulus length in bits, in the RSA files.
        var keySize: Int?
        var tests: [Case]
    }

    struct Case: Decodable {
        var tcId: Int
        var comment: String?
        var flags: [String]?
        /// The signed message and the signature, hex.
        var msg: String
        var sig: String
        var result: Verdict
    }

    /// `valid` must verify, `invalid` must not, `acceptable` may go either way.
    enum Verdict: String, Decodable, Sendable {
        case valid, invalid, acceptable
    }

    static func load(_ name: String) throws -> WycheproofFile {
        try JSONDecoder().decode(Self.self, from: FixtureFiles.data("wycheproof/\(name)"))
    }
}

enum Hex {
    /// The octets of an even-length hex string, `nil` when it is not one.
    static func bytes(_ hex: String) -> [UInt8]? {
        let digits = Array(hex.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        var index = 0
        while index < digits.count {
            guard let high = nibble(digits[index]), let low = nibble(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }

    private static func nibble(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

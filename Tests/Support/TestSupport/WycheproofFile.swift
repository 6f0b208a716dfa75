import Foundation
import SesameProtocol

/// A Wycheproof signature-verification file from `Tests/Fixtures/wycheproof` (C2SP/wycheproof
/// `testvectors_v1`, schemas `ecdsa_p1363_verify_schema_v1`, `rsassa_pkcs1_verify_schema_v1`,
/// `rsassa_pss_verify_schema_v1`, `eddsa_verify_schema_v1`), decoded as far as the tests need.
/// Shared by the SDK and server tests.
public struct WycheproofFile: Decodable {
    public var algorithm: String
    public var numberOfTests: Int
    public var testGroups: [Group]

    /// One public key and the signatures to check with it.
    public struct Group: Decodable {
        /// The key as a JWK (RFC 7517 §4), when the file gives one.
        public var publicKeyJwk: [String: String]?
        /// The PKCS#1 file's name for the same.
        public var keyJwk: [String: String]?
        public var publicKeyPem: String?
        public var publicKey: PublicKey?
        /// Modulus length in bits, in the RSA files.
        public var keySize: Int?
        public var tests: [Case]
    }

    public struct PublicKey: Decodable {
        /// EC point coordinates, big-endian hex (ECDSA files).
        public var wx: String?
        public var wy: String?
    }

    public struct Case: Decodable {
        public var tcId: Int
        public var comment: String?
        public var flags: [String]?
        /// The signed message and the signature, hex.
        public var msg: String
        public var sig: String
        public var result: Verdict
    }

    /// `valid` must verify, `invalid` must not, `acceptable` may go either way.
    public enum Verdict: String, Decodable, Sendable {
        case valid, invalid, acceptable
    }

    public static func load(_ name: String) throws -> WycheproofFile {
        try JSONDecoder().decode(Self.self, from: FixtureFiles.data("wycheproof/\(name)"))
    }
}

extension WycheproofFile.Group {
    /// The public key as a JWK: the file's own, or for the ECDSA groups that have none, built
    /// from the point (RFC 7518 §6.2.1: `x`, `y` are the 32-octet big-endian coordinates).
    public var jwk: [String: String]? {
        if let jwk = publicKeyJwk ?? keyJwk { return jwk }
        guard let wx = publicKey?.wx, let wy = publicKey?.wy,
            let x = Hex.fixedWidth(wx, octets: 32), let y = Hex.fixedWidth(wy, octets: 32)
        else { return nil }
        return ["kty": "EC", "crv": "P-256", "x": Base64URL.encode(x), "y": Base64URL.encode(y)]
    }
}

public enum Hex {
    /// The octets of an even-length hex string, `nil` when it is not one.
    public static func bytes(_ hex: String) -> [UInt8]? {
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

    /// A big-endian integer in exactly `octets` octets (leading zero octets dropped or added).
    public static func fixedWidth(_ hex: String, octets: Int) -> [UInt8]? {
        guard let bytes = bytes(hex) else { return nil }
        let significant = bytes.drop { $0 == 0 }
        guard significant.count <= octets else { return nil }
        return Array(repeating: 0, count: octets - significant.count) + significant
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

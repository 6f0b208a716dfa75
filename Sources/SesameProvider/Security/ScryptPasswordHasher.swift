import SesameStore
import Crypto
import Foundation
import SesameProtocol
import _CryptoExtras

/// Memory-hard password hashing with scrypt (RFC 7914) in PHC string format
/// (https://github.com/P-H-C/phc-string-format):
/// `$scrypt$ln=15,r=8,p=1$<salt>$<hash>`, with PHC's B64 (standard alphabet, no padding),
/// a 16-byte random salt and a 32-byte derived key.
///
/// The default parameters (N = 2^15, r = 8, p = 1; 32 MiB) follow OWASP's Password Storage
/// Cheat Sheet. Tests use `ScryptPasswordHasher(logN: 10)`.
public struct ScryptPasswordHasher: PasswordHasher {
    public let logN: Int
    public let r: Int
    public let p: Int

    public init(logN: Int = 15, r: Int = 8, p: Int = 1) {
        precondition((1...30).contains(logN), "scrypt ln must be in 1...30")
        precondition(r >= 1 && p >= 1, "scrypt r and p must be positive")
        self.logN = logN
        self.r = r
        self.p = p
    }

    /// Interactive logins: ln=15, r=8, p=1.
    public static let interactive = ScryptPasswordHasher()

    package static let saltByteCount = 16
    package static let hashByteCount = 32

    public func hash(_ password: String) throws -> String {
        let salt = SecureRandom.bytes(Self.saltByteCount)
        let derived = try Self.derive(
            password: password, salt: salt, logN: logN, r: r, p: p, count: Self.hashByteCount)
        let parameters = PHCScrypt(logN: logN, r: r, p: p, salt: salt, hash: derived)
        return parameters.encoded
    }

    public func verify(_ password: String, against phc: String) -> Bool {
        guard let parsed = PHCScrypt(parsing: phc) else { return false }
        guard
            let derived = try? Self.derive(
                password: password, salt: parsed.salt, logN: parsed.logN, r: parsed.r,
                p: parsed.p, count: parsed.hash.count)
        else { return false }
        return ConstantTime.equals(derived, parsed.hash)
    }

    public func needsRehash(_ phc: String) -> Bool {
        guard let parsed = PHCScrypt(parsing: phc) else { return true }
        return parsed.logN < logN || parsed.r < r || parsed.p < p
            || parsed.hash.count < Self.hashByteCount || parsed.salt.count < Self.saltByteCount
    }

    private static func derive(
        password: String, salt: [UInt8], logN: Int, r: Int, p: Int, count: Int
    ) throws -> [UInt8] {
        let key = try KDF.Scrypt.deriveKey(
            from: Array(password.utf8), salt: salt, outputByteCount: count, rounds: 1 << logN,
            blockSize: r, parallelism: p)
        return key.withUnsafeBytes { Array($0) }
    }
}

/// A parsed `$scrypt$ln=..,r=..,p=..$salt$hash` PHC string.
package struct PHCScrypt: Equatable {
    package var logN: Int
    package var r: Int
    package var p: Int
    package var salt: [UInt8]
    package var hash: [UInt8]

    package init(logN: Int, r: Int, p: Int, salt: [UInt8], hash: [UInt8]) {
        self.logN = logN
        self.r = r
        self.p = p
        self.salt = salt
        self.hash = hash
    }

    /// `nil` for anything that is not a well-formed scrypt PHC string with sane parameters
    /// (bounds keep a hostile string from demanding unbounded memory or time).
    package init?(parsing phc: String) {
        let fields = phc.split(separator: "$", omittingEmptySubsequences: false)
        guard fields.count == 5, fields[0].isEmpty, fields[1] == "scrypt" else { return nil }
        var values: [String: Int] = [:]
        for pair in fields[2].split(separator: ",", omittingEmptySubsequences: false) {
            let parts = pair.split(separator: "=", omittingEmptySubsequences: false)
            guard parts.count == 2, let value = Int(parts[1]), value > 0,
                values[String(parts[0])] == nil
            else { return nil }
            values[String(parts[0])] = value
        }
        guard values.count == 3, let logN = values["ln"], let r = values["r"], let p = values["p"],
            (1...24).contains(logN), (1...32).contains(r), (1...16).contains(p),
            let salt = PHCBase64.decode(fields[3]), salt.count >= 4, salt.count <= 64,
            let hash = PHCBase64.decode(fields[4]), hash.count >= 16, hash.count <= 64
        else { return nil }
        self.init(logN: logN, r: r, p: p, salt: salt, hash: hash)
    }

    package var encoded: String {
        "$scrypt$ln=\(logN),r=\(r),p=\(p)$\(PHCBase64.encode(salt))$\(PHCBase64.encode(hash))"
    }
}

/// PHC's "B64": standard base64 alphabet without padding.
package enum PHCBase64 {
    package static func encode(_ bytes: [UInt8]) -> String {
        var text = Data(bytes).base64EncodedString()
        while text.hasSuffix("=") { text.removeLast() }
        return text
    }

    package static func decode(_ text: Substring) -> [UInt8]? {
        guard !text.isEmpty, !text.contains("="), text.count % 4 != 1 else { return nil }
        var padded = String(text)
        let remainder = padded.count % 4
        if remainder > 0 { padded += String(repeating: "=", count: 4 - remainder) }
        guard let data = Data(base64Encoded: padded) else { return nil }
        return Array(data)
    }
}

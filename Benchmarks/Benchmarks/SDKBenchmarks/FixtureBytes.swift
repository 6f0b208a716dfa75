import Crypto
import Foundation
import SesameProtocol

/// Random bytes and tokens for the SDK fixtures (the protocol module keeps its `SecureRandom` to
/// Sesame's own package).
enum FixtureBytes {
    static func random(_ count: Int) -> [UInt8] {
        SymmetricKey(size: SymmetricKeySize(bitCount: count * 8)).withUnsafeBytes { Array($0) }
    }

    static func token(byteCount: Int) -> String { Base64URL.encode(random(byteCount)) }

    /// `application/x-www-form-urlencoded` (the WHATWG form encoding of RFC 6749 §B).
    static func form(_ fields: [(String, String)]) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._*")
        func encode(_ text: String) -> String {
            (text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text).replacingOccurrences(of: "%20", with: "+")
        }
        return fields.map { "\(encode($0.0))=\(encode($0.1))" }.joined(separator: "&")
    }
}

import Crypto
import Foundation

/// Proof Key for Code Exchange, RFC 7636, S256 only (RFC 9700 §2.1.1: `plain` is not offered).
public struct PKCE: Sendable, Equatable {
    /// The only method Sesame sends or accepts.
    public static let method = "S256"

    /// RFC 7636 §4.1 `code_verifier`: 43–128 characters of `[A-Z a-z 0-9 - . _ ~]`.
    public let verifier: String
    /// RFC 7636 §4.2 `code_challenge = BASE64URL(SHA256(ASCII(code_verifier)))`.
    public let challenge: String

    /// A fresh verifier from 32 random bytes (43 characters), as RFC 7636 §4.1 recommends.
    public init() {
        let verifier = SecureRandom.token(byteCount: 32)
        self.verifier = verifier
        self.challenge = PKCE.challenge(for: verifier)
    }

    /// Wraps a known verifier; throws if it breaks RFC 7636 §4.1.
    public init(verifier: String) throws(PKCEError) {
        guard PKCE.isValidVerifier(verifier) else { throw PKCEError.malformedVerifier }
        self.verifier = verifier
        self.challenge = PKCE.challenge(for: verifier)
    }

    /// The S256 challenge for a verifier.
    public static func challenge(for verifier: String) -> String {
        Base64URL.sha256(of: verifier)
    }

    /// RFC 7636 §4.1 syntax check (also valid for a §4.2 challenge, whose alphabet is a subset).
    public static func isValidVerifier(_ text: String) -> Bool {
        let utf8 = text.utf8
        guard (43...128).contains(utf8.count) else { return false }
        return utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
                UInt8(ascii: "_"), UInt8(ascii: "~"):
                return true
            default:
                return false
            }
        }
    }

    /// Server side, RFC 7636 §4.6: does `verifier` hash to `challenge`? Constant time.
    public static func verify(verifier: String, challenge: String) -> Bool {
        guard isValidVerifier(verifier) else { return false }
        return ConstantTime.equals(PKCE.challenge(for: verifier), challenge)
    }
}

/// Why a PKCE value was refused.
public enum PKCEError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The verifier is not 43–128 characters of the RFC 7636 §4.1 alphabet.
    case malformedVerifier

    /// The rule broken, for logs and error messages.
    public var description: String {
        switch self {
        case .malformedVerifier:
            "code_verifier must be 43 to 128 characters of A-Z a-z 0-9 - . _ ~ (RFC 7636 §4.1)"
        }
    }
}

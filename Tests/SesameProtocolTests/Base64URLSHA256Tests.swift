import Crypto
import Foundation
import Testing
@testable import SesameProtocol

/// ``Base64URL/sha256(of:prefix:)``: the digest of the string's UTF-8, encoded from the digest's
/// own bytes, equal to the composition it replaced for every kind of text.
@Suite("base64url of SHA-256")
struct Base64URLSHA256Tests {
    @Test("RFC 7636 Appendix B: the S256 challenge of the example verifier")
    func rfc7636Example() {
        #expect(
            Base64URL.sha256(of: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")
                == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
        #expect(PKCE.challenge(for: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk") == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
    }

    @Test(
        "the same text as Base64URL.encode(SHA256.hash(data: Data(text.utf8))), whole or cut",
        arguments: [
            ("", 0), ("a", 1), ("ab", 1), ("abc", 1), ("x", 55), ("y", 64),
            ("refresh-token-\u{00E9}\u{4E2D}\u{1F600}", 1), ("\u{1F600}", 10_000), ("z", 1 << 20),
        ])
    func sameAsComposition(piece: String, repeated count: Int) {
        // The text is built here so a 1 MiB argument is not printed in the test log.
        let text = String(repeating: piece, count: count)
        let digest = Array(SHA256.hash(data: Data(text.utf8)))
        #expect(Base64URL.sha256(of: text) == Base64URL.encode(digest))
        for prefix in [0, 1, 15, 16, 31, 32] {
            #expect(Base64URL.sha256(of: text, prefix: prefix) == Base64URL.encode(digest.prefix(prefix)))
        }
    }

    @Test("a substring and a string bridged from Foundation hash as their characters")
    func otherStorage() {
        let whole = "prefix:the-secret:suffix"
        let middle = String(whole.split(separator: ":")[1])
        #expect(Base64URL.sha256(of: middle) == Base64URL.sha256(of: "the-secret"))
        let formatted = String(format: "%@-%d", "token", 42)
        #expect(Base64URL.sha256(of: formatted) == Base64URL.sha256(of: "token-42"))
    }
}

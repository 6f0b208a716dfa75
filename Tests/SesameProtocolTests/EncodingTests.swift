import Foundation
import SesameProtocol
import Testing

@Suite("Encodings")
struct EncodingTests {
    @Test("base64url round trip without padding, for every length")
    func base64URLRoundTrip() throws {
        for length in 0..<40 {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 251) }
            let text = Base64URL.encode(bytes)
            #expect(!text.contains("=") && !text.contains("+") && !text.contains("/"))
            #expect(try #require(Base64URL.decode(text)) == Data(bytes))
        }
    }

    @Test("base64url agrees with Foundation's base64 (RFC 4648 §5 alphabet swap, no padding)")
    func base64URLMatchesFoundation() throws {
        var generator = SystemRandomNumberGenerator()
        for length in 0..<200 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let reference = Data(bytes).base64EncodedString()
                .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
            #expect(Base64URL.encode(bytes) == reference)
            #expect(Base64URL.encode(bytes[...]) == reference)
            let padded = reference + String(repeating: "=", count: (4 - reference.count % 4) % 4)
            #expect(Base64URL.decode(padded) == Data(bytes))
        }
        #expect(Base64URL.encode([0xFB, 0xFF]) == "-_8")
        #expect(Base64URL.decode("-_8=") == Data([0xFB, 0xFF]))
        #expect(Base64URL.decode("-_8==") == nil)
    }

    @Test("base64url rejects the standard alphabet and impossible lengths")
    func base64URLRejects() {
        #expect(Base64URL.decode("ab+c") == nil)
        #expect(Base64URL.decode("ab/c") == nil)
        #expect(Base64URL.decode("abcde") == nil)
        #expect(Base64URL.decode("-_8") != nil)
    }

    @Test("form encoding escapes everything outside the unreserved set")
    func formEncode() {
        let body = FormURLEncoding.encode([("redirect_uri", "http://127.0.0.1:9/cb?x=1&y=2"), ("scope", "openid profile")])
        #expect(body == "redirect_uri=http%3A%2F%2F127.0.0.1%3A9%2Fcb%3Fx%3D1%26y%3D2&scope=openid%20profile")
        #expect(FormURLEncoding.decode(body) == ["redirect_uri": "http://127.0.0.1:9/cb?x=1&y=2", "scope": "openid profile"])
    }

    @Test("form decoding: '+' is a space, repeated parameters and bad escapes are rejected")
    func formDecode() {
        #expect(FormURLEncoding.decode("a=b+c&d=%7E") == ["a": "b c", "d": "~"])
        #expect(FormURLEncoding.decode("a=1&a=2") == nil)
        #expect(FormURLEncoding.decode("a=%zz") == nil)
        #expect(FormURLEncoding.decode("flag") == ["flag": ""])
    }

    @Test("constant-time equality")
    func constantTime() {
        #expect(ConstantTime.equals("state-123", "state-123"))
        #expect(!ConstantTime.equals("state-123", "state-124"))
        #expect(!ConstantTime.equals("state", "state-123"))
        #expect(ConstantTime.equals([UInt8](), [UInt8]()))
    }

    @Test("secure random tokens carry the requested entropy")
    func randomTokens() {
        let token = SecureRandom.token()
        #expect(Base64URL.decode(token)?.count == 32)
        #expect(SecureRandom.token() != token)
        #expect(SecureRandom.bytes(64).count == 64)
        for count in [0, 1, 7, 8, 33] { #expect(SecureRandom.bytes(count).count == count) }
    }

    @Test("secure random bytes cover every value evenly (64 KiB sample)")
    func randomBytesDistribution() {
        var counts = [Int](repeating: 0, count: 256)
        for _ in 0..<1024 {
            for byte in SecureRandom.bytes(64) { counts[Int(byte)] += 1 }
        }
        // 65,536 bytes: 256 expected per value, standard deviation about 16.
        #expect(counts.allSatisfy { (150...370).contains($0) }, "counts: \(counts.min()!)...\(counts.max()!)")
    }
}

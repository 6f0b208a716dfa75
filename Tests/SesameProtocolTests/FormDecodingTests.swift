import Foundation
import Testing
@testable import SesameProtocol

/// The byte-level form decoder agrees with Foundation's `removingPercentEncoding` (after `+` →
/// space), which it replaced on the hot path, on hand-picked edge cases and on random inputs,
/// with one deliberate difference: bytes that are not UTF-8 make the value invalid, where
/// Foundation on Linux sometimes substitutes U+FFFD.
@Suite("Form decoding")
struct FormDecodingTests {
    /// What the decoder replaced.
    static func foundation(_ text: String) -> String? {
        text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
    }

    @Test("edge cases: escapes of either case, UTF-8, truncated and invalid escapes, bad UTF-8")
    func edgeCases() {
        let cases = [
            "", "plain", "a+b", "%7e%7E", "%C3%A9t%C3%A9", "%E2%82%AC", "100%", "%", "%4", "%4g", "%zz",
            "%C3", "%FF", "%00", "%2B+%2b", "https%3A%2F%2Fapp.example%2Fcb%3Fx%3D1", "caf\u{e9}", "+++",
        ]
        for text in cases {
            #expect(FormURLEncoding.unescape(Substring(text)) == Self.foundation(text), "\(text)")
        }
        #expect(FormURLEncoding.unescape("a%20b+c") == "a b c")
        #expect(FormURLEncoding.unescape("%C3") == nil, "a lone UTF-8 lead byte is not text")
        #expect(FormURLEncoding.unescape("%4") == nil)
    }

    @Test("random inputs decode exactly as Foundation decodes them")
    func randomAgreement() {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("%+abcAF09zZ-._~ é€".unicodeScalars) + ["%C3", "%A9", "%E2", "%82", "%AC", "%FF", "%2", "%0a"].flatMap(\.unicodeScalars)
        for _ in 0..<5_000 {
            var text = String.UnicodeScalarView()
            for _ in 0..<Int.random(in: 0...12, using: &generator) {
                text.append(alphabet.randomElement(using: &generator)!)
            }
            let string = String(text)
            let expected = Self.foundation(string)
            if expected?.unicodeScalars.contains("\u{FFFD}") == true {
                #expect(FormURLEncoding.unescape(Substring(string)) == nil, "\(string): not UTF-8")
            } else {
                #expect(FormURLEncoding.unescape(Substring(string)) == expected, "\(string)")
            }
        }
    }
}

@Suite("Form decoding: splitting a body into pairs")
struct FormPairTests {
    @Test("pairs split on the bytes & and =: empty parts, a name alone, = inside a value, text around a combining mark")
    func splitting() throws {
        func pairs(_ body: String) -> [String]? { FormURLEncoding.decodePairs(body)?.map { "\($0.0)|\($0.1)" } }
        #expect(pairs("") == [])
        #expect(pairs("&&") == [])
        #expect(pairs("a=1&&b=2&") == ["a|1", "b|2"])
        #expect(pairs("a") == ["a|"], "a name without = has an empty value")
        #expect(pairs("a=") == ["a|"])
        #expect(pairs("=1") == ["|1"])
        #expect(pairs("a=b=c") == ["a|b=c"], "only the first = separates")
        #expect(pairs("na%C3%AFve=caf%C3%A9&x=%E2%82%AC") == ["naïve|café", "x|€"])
        #expect(pairs("caf\u{e9}=\u{1F642}&b=2") == ["café|🙂", "b|2"])
        // A combining acute accent after & is one Character with it; the byte still separates.
        #expect(pairs("a=1&\u{301}b=2") == ["a|1", "\u{301}b|2"])
        #expect(pairs("a=1&b=%ZZ") == nil, "one malformed value makes the body invalid")
        #expect(pairs("a=%C3&b=2") == nil, "bytes that are not UTF-8 make it invalid")
        let many = (0..<10_000).map { "p\($0)=\($0)" }.joined(separator: "&")
        #expect(try #require(FormURLEncoding.decodePairs(many)).count == 10_000)
    }
}

@Suite("Form decoding for a server: RFC 6749 §3.1")
struct RecognizedFormDecodingTests {
    @Test("a recognized parameter may not repeat; an unrecognized one is ignored, repeated or not")
    func recognizedParameters() {
        let recognized: Set<String> = ["grant_type", "code"]
        #expect(FormURLEncoding.decode("grant_type=a&grant_type=a", recognized: recognized) == nil)
        #expect(FormURLEncoding.decode("grant_type=a&x=1&x=2&y=3", recognized: recognized) == ["grant_type": "a"])
        #expect(FormURLEncoding.decode("code=%ZZ&x=1", recognized: recognized) == nil, "malformed stays malformed")
        // "Parameters sent without a value MUST be treated as if they were omitted."
        #expect(FormURLEncoding.decode("grant_type=a&code=", recognized: recognized) == ["grant_type": "a"])
        #expect(FormURLEncoding.decode("code=&code=1", recognized: recognized) == nil, "still a repeated parameter")
        #expect(RecognizedParameters.all.isSuperset(of: ["client_id", "redirect_uri", "code_verifier", "token_type_hint"]))
    }
}

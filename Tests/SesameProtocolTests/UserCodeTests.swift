import SesameProtocol
import Testing

/// RFC 8628 §6.1 user codes: forgiving to type, strict about what a code is, uniformly random.
@Suite("User codes (RFC 8628 section 6.1)")
struct UserCodeTests {
    @Test("case, spaces, dashes and other punctuation are ignored", arguments: [
        "BCDF-GHJK", "bcdf-ghjk", "BCDFGHJK", " bcdf ghjk ", "B.C.D.F-G.H.J.K", "bcdf\u{2013}ghjk",
    ])
    func forgivingInput(typed: String) throws {
        let code = try #require(UserCode(typed: typed))
        #expect(code.normalized == "BCDFGHJK")
        #expect(code.description == "BCDF-GHJK")
    }

    @Test("anything else is not a code: vowels, digits, other letters, wrong lengths, huge input", arguments: [
        "", "BCDF-GHJ", "BCDF-GHJKL", "ABCD-FGHJ", "BCDF-GHJ0", "BCDF-GHJÜ", "BCDF-GHJ\u{0}K",
        String(repeating: "B", count: 65), String(repeating: "-", count: 10_000) + "BCDFGHJK",
    ])
    func refused(typed: String) {
        #expect(UserCode(typed: typed) == nil)
    }

    @Test("random codes use only the alphabet, each letter about equally often")
    func randomCodes() throws {
        var counts: [Character: Int] = [:]
        let draws = 5_000
        for _ in 0..<draws {
            let code = UserCode.random()
            #expect(UserCode(typed: code.description) == code)
            for letter in code.normalized { counts[letter, default: 0] += 1 }
        }
        #expect(Set(counts.keys).isSubset(of: Set(UserCode.alphabet)))
        #expect(counts.count == 20)
        // 40,000 letters over 20: 2,000 each expected; a biased draw (bytes mod 20 without
        // rejection) would still pass this, a broken one (a letter never drawn) would not.
        let expected = Double(draws * UserCode.length) / 20
        for (letter, count) in counts {
            #expect(abs(Double(count) - expected) < expected * 0.15, "\(letter): \(count)")
        }
    }
}

import Foundation
import TestSupport
import SesameProtocol
import Testing

@Suite("PKCE (RFC 7636)")
struct PKCETests {
    @Test("Appendix B vector: verifier octets → verifier → S256 challenge")
    func appendixB() throws {
        let vector = try FixtureFiles.json("vectors/pkce-rfc7636-appendix-b.json")
        let octets = try #require(vector["verifier_octets"] as? [Int]).map(UInt8.init)
        let verifier = try #require(vector["code_verifier"] as? String)
        let challenge = try #require(vector["code_challenge"] as? String)
        #expect(Base64URL.encode(octets) == verifier)
        let pkce = try PKCE(verifier: verifier)
        #expect(pkce.challenge == challenge)
        #expect(PKCE.verify(verifier: verifier, challenge: challenge))
        #expect(!PKCE.verify(verifier: verifier, challenge: String(challenge.dropLast()) + "A"))
    }

    @Test("fresh verifiers are 43 characters, valid and distinct")
    func freshVerifiers() {
        let values = (0..<50).map { _ in PKCE() }
        #expect(Set(values.map(\.verifier)).count == 50)
        for value in values {
            #expect(value.verifier.count == 43)
            #expect(PKCE.isValidVerifier(value.verifier))
            #expect(PKCE.method == "S256")
        }
    }

    @Test("verifier syntax (RFC 7636 §4.1)", arguments: [
        (String(repeating: "a", count: 42), false),
        (String(repeating: "a", count: 43), true),
        (String(repeating: "a", count: 128), true),
        (String(repeating: "a", count: 129), false),
        (String(repeating: "a", count: 42) + "+", false),
        (String(repeating: "a", count: 42) + "~", true),
        (String(repeating: "é", count: 43), false),
    ])
    func verifierSyntax(verifier: String, valid: Bool) {
        #expect(PKCE.isValidVerifier(verifier) == valid)
        let constructed = (try? PKCE(verifier: verifier)) != nil
        #expect(constructed == valid)
    }

    @Test("a malformed verifier never verifies, even against its own challenge")
    func malformedNeverVerifies() {
        let short = "abc"
        #expect(!PKCE.verify(verifier: short, challenge: PKCE.challenge(for: short)))
    }
}

import Foundation
import SesameProtocol
import Testing

/// ``PINPolicy``: the defaults, and each rule on its own (the SDK turns each into its own error).
@Suite("PIN policy")
struct PINPolicyTests {
    @Test("defaults: 5 digits, no sequences, a digit at most twice, common PINs refused, 3 attempts")
    func defaults() {
        let policy = PINPolicy()
        #expect(policy.minimumLength == 5 && policy.forbidsSequences && policy.maximumRepeatedDigits == 2)
        #expect(policy.maximumAttempts == 3 && policy.blacklist == PINPolicy.commonPINs)
        for good in ["24681", "97310", "112233", "864209", "120973"] { #expect(policy.violation(good) == nil, "\(good)") }
    }

    @Test("each rule is its own violation, checked in a fixed order")
    func rules() {
        let policy = PINPolicy()
        #expect(policy.violation("2468") == .tooShort(minimum: 5))
        #expect(policy.violation("") == .tooShort(minimum: 5))
        #expect(policy.violation("12a45") == .notNumeric)
        #expect(policy.violation("１２３４５") == .notNumeric, "full-width digits are not ASCII digits")
        #expect(policy.violation(String(repeating: "1", count: 13)) == .notNumeric, "over 12 digits")
        #expect(policy.violation("12345") == .sequence)
        #expect(policy.violation("98765") == .sequence)
        #expect(policy.violation("0123456789") == .sequence)
        #expect(policy.violation("11124") == .tooManySimilarDigits(maximum: 2))
        #expect(policy.violation("13579") == .blacklisted)
        #expect(PINPolicy(forbidsSequences: false).violation("12345") == nil)
        #expect(PINPolicy(maximumRepeatedDigits: 3).violation("11124") == nil)
        #expect(PINPolicy(minimumLength: 6, blacklist: ["975310"]).violation("975310") == .blacklisted)
    }

    @Test("the policy's JSON uses the documented member names")
    func json() throws {
        let data = try JSONEncoder().encode(PINPolicy())
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(Set(object.keys) == ["minimum_length", "forbids_sequences", "maximum_repeated_digits", "blacklist", "maximum_attempts"])
        #expect(try JSONDecoder().decode(PINPolicy.self, from: data) == PINPolicy())
    }
}

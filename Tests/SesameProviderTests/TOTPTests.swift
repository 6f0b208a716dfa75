import Foundation
import Testing
@testable import SesameProvider
import SesameStore

@Suite("TOTP, base32 and one-time codes")
struct TOTPTests {
    /// RFC 6238 Appendix B, SHA-1 rows: the ASCII seed "12345678901234567890", 8 digits.
    @Test(
        "RFC 6238 Appendix B SHA-1 vectors",
        arguments: [
            (59, 1, "94287082"), (1_111_111_109, 0x23523EC, "07081804"),
            (1_111_111_111, 0x23523ED, "14050471"), (1_234_567_890, 0x273EF07, "89005924"),
            (2_000_000_000, 0x3F940AA, "69279037"), (20_000_000_000, 0x27BC86AA, "65353130"),
        ] as [(Int, Int64, String)])
    func rfc6238Vectors(time: Int, step: Int64, expected: String) {
        let totp = TOTP(secret: Array("12345678901234567890".utf8), digits: 8)
        let date = Date(timeIntervalSince1970: TimeInterval(time))
        #expect(totp.timeStep(at: date) == step)
        #expect(totp.code(at: date) == expected)
    }

    @Test("a code is accepted one step either side, not two; malformed input never matches")
    func driftWindow() {
        let totp = TOTP(secret: TOTP.newSecret())
        let now = Date(timeIntervalSince1970: 1_700_000_015)
        let step = totp.timeStep(at: now)
        #expect(totp.matchingStep(for: totp.code(forStep: step), at: now) == step)
        #expect(totp.matchingStep(for: totp.code(forStep: step - 1), at: now) == step - 1)
        #expect(totp.matchingStep(for: totp.code(forStep: step + 1), at: now) == step + 1)
        let farCode = totp.code(forStep: step + 2)
        let nearCodes = (step - 1...step + 1).map { totp.code(forStep: $0) }
        if !nearCodes.contains(farCode) { #expect(totp.matchingStep(for: farCode, at: now) == nil) }
        #expect(totp.matchingStep(for: "12345", at: now) == nil)
        #expect(totp.matchingStep(for: "12a456", at: now) == nil)
        #expect(totp.code(at: now).count == 6)
    }

    @Test("base32: RFC 4648 §10 vectors, lower case and padding accepted, junk refused")
    func base32() {
        let vectors = [
            ("", ""), ("f", "MY"), ("fo", "MZXQ"), ("foo", "MZXW6"), ("foob", "MZXW6YQ"),
            ("fooba", "MZXW6YTB"), ("foobar", "MZXW6YTBOI"),
        ]
        for (plain, encoded) in vectors {
            #expect(Base32.encode(Array(plain.utf8)) == encoded)
            #expect(Base32.decode(encoded) == Array(plain.utf8))
        }
        #expect(Base32.decode("mzxw6ytboi======") == Array("foobar".utf8))
        #expect(Base32.decode("MZXW6YTB0I") == nil)  // 0 is not in the alphabet
        let secret = TOTP.newSecret()
        #expect(secret.count == 20)
        #expect(Base32.encode(secret).count == 32)
        #expect(Base32.decode(Base32.encode(secret)) == secret)
    }

    @Test("one-time codes are 6 digits, vary, and match only their digest")
    func oneTimeCodes() {
        let codes = (0..<50).map { _ in OneTimeCode.generate() }
        #expect(codes.allSatisfy(OneTimeCode.isWellFormed))
        #expect(Set(codes).count > 40)
        let digest = SecretDigest.of(codes[0])
        #expect(OneTimeCode.matches(codes[0], digest: digest))
        #expect(!OneTimeCode.matches(codes[0] == "000000" ? "000001" : "000000", digest: digest))
        #expect(!OneTimeCode.isWellFormed("12345"))
        #expect(!OneTimeCode.isWellFormed("1234567"))
        #expect(!OneTimeCode.isWellFormed("12 456"))
    }

    @Test("destinations are masked; E.164 numbers are validated")
    func maskingAndPhoneNumbers() {
        #expect(MaskedDestination.email("alice@example.com") == "a***@example.com")
        #expect(MaskedDestination.phone("+4712345678") == "+47******78")
        #expect(MaskedDestination.phone("+15550100") == "+15****00")
        for valid in ["+4712345678", "+15550100", "+861012345678901"] { #expect(PhoneNumber.isValidE164(valid), "\(valid)") }
        for invalid in ["4712345678", "+0712345678", "+47 1234 5678", "+47-12345678", "+123", "+1234567890123456", ""] {
            #expect(!PhoneNumber.isValidE164(invalid), "\(invalid)")
        }
    }

    @Test("amr per RFC 8176: pwd, the method's value, mfa")
    func amr() {
        #expect(AuthSessionFlow.amr(firstFactor: ["pwd"], method: .email) == ["pwd", "otp", "mfa"])
        #expect(AuthSessionFlow.amr(firstFactor: ["pwd"], method: .totp) == ["pwd", "otp", "mfa"])
        #expect(AuthSessionFlow.amr(firstFactor: ["pwd"], method: .sms) == ["pwd", "sms", "mfa"])
        #expect(AuthSessionFlow.amr(firstFactor: ["pwd", "otp", "mfa"], method: .sms) == ["pwd", "otp", "sms", "mfa"])
    }

    @Test("MFA requirement: policy, requested acr, email fallback")
    func requirement() {
        let never = MFARequirement(policy: .never, requested: false, emailFallback: true)
        #expect(never.decide(usable: [.totp], emailVerified: true) == .notRequired)
        let neverButAsked = MFARequirement(policy: .never, requested: true, emailFallback: true)
        #expect(neverButAsked.decide(usable: [.totp], emailVerified: true) == .required([.totp]))
        let whenEnrolled = MFARequirement(policy: .whenEnrolled, requested: false, emailFallback: true)
        #expect(whenEnrolled.decide(usable: [], emailVerified: true) == .notRequired)
        #expect(whenEnrolled.decide(usable: [.sms], emailVerified: true) == .required([.sms]))
        let always = MFARequirement(policy: .always, requested: false, emailFallback: true)
        #expect(always.decide(usable: [], emailVerified: true) == .required([.email]))
        #expect(always.decide(usable: [], emailVerified: false) == .unavailable)
        let stepUp = MFARequirement(policy: .never, requested: true, emailFallback: false)
        #expect(stepUp.decide(usable: [], emailVerified: true) == .unavailable)
        // acr_values is a preference list (OIDC Core §3.1.2.1): only mfa alone requires it.
        #expect(MFARequirement.asksForMFA("urn:sesame:acr:mfa"))
        #expect(!MFARequirement.asksForMFA("urn:sesame:acr:pwd urn:sesame:acr:mfa"))
        #expect(!MFARequirement.asksForMFA("urn:sesame:acr:pwd"))
        #expect(!MFARequirement.asksForMFA(nil))
    }
}

import SesameProtocol
import Testing

@testable import SesameProvider

@Suite("Account password policy")
struct AccountPasswordPolicyTests {
    let policy = PasswordPolicy()

    @Test("accepts a strong password")

    func acceptsAStrongPassword() {
        #expect(policy.violations(of: "correct horse battery", email: "a@example.com").isEmpty)
    }

    @Test("rejects empty, short, long and weak")

    func rejectsEmptyShortLongAndWeak() {
        #expect(policy.violations(of: "").map(\.code) == ["required"])
        #expect(policy.violations(of: "short").map(\.code) == ["too_short"])
        #expect(policy.violations(of: String(repeating: "x", count: 1025)).map(\.code) == ["too_long"])
        #expect(policy.violations(of: "Password123").map(\.code) == ["weak_password"])
        #expect(policy.violations(of: "Alice@Example.com", email: "alice@example.com").map(\.code)
            == ["weak_password"])
        #expect(policy.violations(of: "new-secret", field: "new_password").first?.field == nil)
        #expect(policy.violations(of: "tiny", field: "new_password").first?.field == "new_password")
    }
}

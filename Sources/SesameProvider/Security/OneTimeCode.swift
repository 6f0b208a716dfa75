import SesameStore
import Foundation
import SesameProtocol

/// The one-time codes Sesame sends by email and SMS for MFA and SMS enrolment (docs/first-party-and-accounts.md
///): 6 decimal digits drawn uniformly from ``SecureRandom``, stored only as a
/// ``SecretDigest``, valid 5 minutes, single use, at most 5 wrong answers.
///
/// A 6-digit code has only 10^6 values, so its digest alone would not resist guessing; what
/// protects it is the attempt limit and the short lifetime, both enforced by the store.
package enum OneTimeCode {
    package static let digits = 6
    package static let lifetime: TimeInterval = 5 * 60
    /// Wrong answers allowed per auth session or pending enrolment.
    package static let maxAttempts = 5

    /// A fresh code. Rejection sampling keeps every value equally likely (no modulo bias).
    package static func generate() -> String {
        let range: UInt32 = 1_000_000
        let limit = UInt32.max - UInt32.max % range
        while true {
            let value = SecureRandom.bytes(4).reduce(UInt32(0)) { ($0 << 8) | UInt32($1) }
            if value < limit { return pad(value % range) }
        }
    }

    /// `true` for exactly ``digits`` ASCII digits.
    package static func isWellFormed(_ code: String) -> Bool {
        code.utf8.count == digits && code.utf8.allSatisfy { (0x30...0x39).contains($0) }
    }

    /// Constant-time check of a submitted code against the stored digest.
    package static func matches(_ code: String, digest: String) -> Bool {
        SecretDigest.matches(code, digest: digest)
    }

    private static func pad(_ value: UInt32) -> String {
        let text = String(value)
        return String(repeating: "0", count: digits - text.count) + text
    }
}

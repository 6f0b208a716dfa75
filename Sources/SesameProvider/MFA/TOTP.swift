import Crypto
import Foundation
import SesameProtocol
import SesameStore

/// Time-based one-time passwords, RFC 6238 over the HOTP algorithm of RFC 4226, with the
/// parameters every authenticator app supports: HMAC-SHA-1, 6 digits, 30-second steps, T0 = 0.
///
/// RFC 6238 §5.2 recommends accepting at most one step of clock drift either side; Sesame does
/// exactly that (±1 step). Replay of an accepted step (§5.2: "the verifier MUST NOT accept the
/// second attempt of the OTP after the successful validation") is prevented by the store,
/// which remembers the last step used per enrolment (``MFAStore/useTOTPStep(userID:step:)``).
package struct TOTP: Sendable {
    /// The shared secret (RFC 4226 §4 R6: at least 128 bits; Sesame issues 160).
    package let secret: [UInt8]
    package var digits = 6
    /// RFC 6238 §4.1 X, the time step in seconds.
    package var period = 30
    /// Steps of drift accepted either side of the current one (RFC 6238 §5.2).
    package var window = 1

    package init(secret: [UInt8], digits: Int = 6, period: Int = 30, window: Int = 1) {
        self.secret = secret
        self.digits = digits
        self.period = period
        self.window = window
    }

    /// RFC 6238 §4.2: `T = floor((Current Unix time - T0) / X)`.
    package func timeStep(at date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 / Double(period)).rounded(.down))
    }

    /// The code for the step containing `date`.
    package func code(at date: Date) -> String { code(forStep: timeStep(at: date)) }

    /// RFC 4226 §5.3: HMAC-SHA-1 over the 8-byte big-endian counter, dynamic truncation,
    /// modulo 10^digits, left-padded with zeros.
    package func code(forStep step: Int64) -> String {
        var counter = UInt64(bitPattern: step).bigEndian
        let message = withUnsafeBytes(of: &counter) { Data($0) }
        let mac = Array(HMAC<Insecure.SHA1>.authenticationCode(for: message, using: SymmetricKey(data: secret)))
        let offset = Int(mac[mac.count - 1] & 0x0F)
        let binary =
            (UInt32(mac[offset] & 0x7F) << 24) | (UInt32(mac[offset + 1]) << 16)
            | (UInt32(mac[offset + 2]) << 8) | UInt32(mac[offset + 3])
        var modulus: UInt32 = 1
        for _ in 0..<digits { modulus *= 10 }
        let value = String(binary % modulus)
        return String(repeating: "0", count: digits - value.count) + value
    }

    /// The time step whose code equals `code` within the drift window around `date`, or `nil`.
    /// Every step of the window is computed and compared in constant time, so timing does not
    /// reveal which one matched.
    package func matchingStep(for code: String, at date: Date) -> Int64? {
        guard code.utf8.count == digits, code.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        let current = timeStep(at: date)
        var match: Int64?
        for offset in -Int64(window)...Int64(window) {
            let step = current + offset
            if ConstantTime.equals(self.code(forStep: step), code), match == nil { match = step }
        }
        return match
    }

    /// A new random secret: 20 bytes (160 bits, the RFC 4226 §4 recommendation for SHA-1).
    package static func newSecret() -> [UInt8] { SecureRandom.bytes(20) }
}

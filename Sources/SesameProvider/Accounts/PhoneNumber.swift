import SesameStore
/// ITU-T E.164 numbers as used for SMS codes: `+`, a country code that does not start with 0,
/// and at most 15 digits in all. Sesame asks for the canonical form (no spaces or punctuation),
/// the same form the OIDC `phone_number` claim recommends (OIDC Core §5.1).
package enum PhoneNumber {
    /// Fewest digits accepted (short national numbers plus a country code).
    package static let minimumDigits = 7
    /// E.164 §6.1: at most 15 digits.
    package static let maximumDigits = 15

    package static func isValidE164(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.first == UInt8(ascii: "+") else { return false }
        let digits = bytes.dropFirst()
        return (minimumDigits...maximumDigits).contains(digits.count)
            && digits.allSatisfy { (0x30...0x39).contains($0) }
            && digits.first != UInt8(ascii: "0")
    }
}

import SesameStore
/// Where a code went, masked for display in `error_description`, on the MFA page and in
/// ``SesameProtocol/MFAEnrollmentStatus/destination`` (docs/first-party-and-accounts.md): enough for the user
/// to recognise their own address, too little to learn someone else's.
package enum MaskedDestination {
    /// `alice@example.com` → `a***@example.com`.
    package static func email(_ address: String) -> String {
        guard let at = address.lastIndex(of: "@"), at > address.startIndex else { return "***" }
        return String(address[address.startIndex]) + "***" + address[at...]
    }

    /// `+4712345678` → `+47******78`: the `+`, two leading and two trailing digits.
    package static func phone(_ number: String) -> String {
        let digits = Array(number.drop { $0 == "+" })
        guard digits.count > 4 else { return "+" + String(repeating: "*", count: digits.count) }
        return "+" + String(digits.prefix(2)) + String(repeating: "*", count: digits.count - 4)
            + String(digits.suffix(2))
    }
}

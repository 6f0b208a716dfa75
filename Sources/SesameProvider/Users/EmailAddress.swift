import SesameStore
import Foundation

/// The one normalization of an email address, for local sign-up, account self-service and
/// federated claims alike: surrounding whitespace removed, lowercased (Sesame compares
/// addresses case-insensitively, as mail providers do in practice), and checked with
/// ``UserValidation/checkEmail(_:)`` (one `@`, a non-empty local part, a domain of at least two
/// RFC 1035 labels, at most 254 characters, no whitespace).
package enum EmailAddress {
    /// The trimmed, lowercased form of `raw`, whether or not it is valid.
    package static func canonical(_ raw: String) -> String {
        raw.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
    }

    /// The normalized address, or `nil` when `raw` is absent or not a valid address (a
    /// provider's invalid `email` claim is then treated as absent).
    package static func normalized(_ raw: String?) -> String? {
        guard let raw else { return nil }
        let address = canonical(raw)
        do {
            try UserValidation.checkEmail(address)
            return address
        } catch {
            return nil
        }
    }
}

import Foundation
import SesameProtocol

/// Display-only facts about an access token. Access tokens are opaque to clients (RFC 6749
/// §1.4); when one happens to be a JWT (RFC 9068, as Sesame's are) its `exp` is shown, never
/// trusted for anything else: the SDK decides when to refresh.
enum AccessTokenInfo {
    /// The `exp` claim of a JWT access token, or `nil` for opaque tokens and for an `exp` that is
    /// not a NumericDate in range (RFC 7519 §2, ``NumericDate``).
    static func expiry(of token: String) -> Date? {
        let parts = token.split(separator: ".")
        guard parts.count == 3, let payload = Base64URL.decode(String(parts[1])),
            let object = try? JSONSerialization.jsonObject(with: payload) as? [String: Any],
            let exp = object["exp"] as? NSNumber
        else { return nil }
        return try? NumericDate(validating: exp.doubleValue, claim: "exp").date
    }
}

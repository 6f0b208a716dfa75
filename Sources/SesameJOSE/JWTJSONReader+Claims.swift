import Foundation
import SesameProtocol

/// Typed readers for the claim values of a JWT claims set (RFC 7519 §4.1), shared by the
/// ID-token and access-token validators so both apply the same type rules.
extension JWTJSONReader.Value {
    /// A claim that must be a string.
    package func string(claim name: String) throws -> String {
        guard case .string(let text) = self else {
            throw JWTJSONReader.Malformed(reason: "\(name) is not a string")
        }
        return text
    }

    /// A claim that may be `null` (treated as absent) or a string.
    package func optionalString(claim name: String) throws -> String? {
        if case .null = self { return nil }
        return try string(claim: name)
    }

    /// A string, or `nil` for any other type: for informational claims whose odd type must not
    /// fail validation.
    package var lenientString: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    /// `aud`: one string or an array of strings (RFC 7519 §4.1.3).
    package func audience() throws -> [String] {
        switch self {
        case .string(let single): return [single]
        case .stringArray(let many): return many
        default: throw JWTJSONReader.Malformed(reason: "aud is not a string or array of strings")
        }
    }

    /// An array of strings, or `null` for none (`amr`, OIDC Core §2).
    package func optionalStringArray(claim name: String) throws -> [String]? {
        switch self {
        case .stringArray(let values): return values
        case .null: return nil
        default: throw JWTJSONReader.Malformed(reason: "\(name) is not an array of strings")
        }
    }

    /// A NumericDate (RFC 7519 §2), or `nil` for `null`; numbers out of the representable range
    /// throw ``NumericDateError`` naming the claim.
    package func numericDate(claim name: String) throws -> Date? {
        switch self {
        case .number(let seconds): return try NumericDate(validating: seconds, claim: name).date
        case .null: return nil
        default: throw NumericDateError(claim: name, rule: .notANumber, value: "(not a number)")
        }
    }
}

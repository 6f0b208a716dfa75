import Foundation

/// A NumericDate (RFC 7519 §2): seconds since 1970-01-01T00:00:00Z UTC, ignoring leap seconds,
/// as a JSON number that may be fractional. Every JWT time claim Sesame reads (`exp`, `iat`,
/// `nbf`, `auth_time`, `updated_at`) goes through this type, so that no token, however it was
/// signed, can turn into a trap when a date becomes an integer.
///
/// Sesame accepts the range a token can mean, and refuses the rest with a ``NumericDateError``
/// naming the claim and the rule:
/// - from ``earliest``, 0 (1970-01-01T00:00:00Z): RFC 7519 allows earlier dates, but no token
///   is issued, expires or authenticated before its format existed;
/// - to ``latest``, 253402300799 (9999-12-31T23:59:59Z), the last second every date library
///   formats, far below where `Int64`, `Int` and `Date` arithmetic stop being exact;
/// - finite only (JSON has no NaN or infinity; a number too large for a `Double` is refused);
/// - integer or fractional (kept as received; ``seconds`` rounds down); `-0` is 0.
public struct NumericDate: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// 1970-01-01T00:00:00Z.
    public static let earliest: Double = 0
    /// 9999-12-31T23:59:59Z.
    public static let latest: Double = 253_402_300_799

    /// Seconds since the epoch, within ``earliest`` … ``latest``.
    public let secondsSince1970: Double

    /// Checks `seconds` against the rules above; `claim` names it in the error (`exp`, `iat`, …).
    public init(validating seconds: Double, claim: String) throws(NumericDateError) {
        guard seconds.isFinite else { throw NumericDateError(claim: claim, rule: .notFinite, value: Self.text(seconds)) }
        guard seconds >= Self.earliest else {
            throw NumericDateError(claim: claim, rule: .beforeEpoch, value: Self.text(seconds))
        }
        guard seconds <= Self.latest else {
            throw NumericDateError(claim: claim, rule: .afterYear9999, value: Self.text(seconds))
        }
        secondsSince1970 = seconds + 0  // -0 + 0 is +0
    }

    /// `date`, moved into the accepted range (a date before 1970 becomes 0, one after year 9999
    /// becomes ``latest``, NaN becomes 0). For writing dates Sesame made itself.
    public init(clamping date: Date) {
        let seconds = date.timeIntervalSince1970
        secondsSince1970 = seconds.isNaN ? 0 : min(max(seconds, Self.earliest), Self.latest) + 0
    }

    /// The instant.
    public var date: Date { Date(timeIntervalSince1970: secondsSince1970) }

    /// Whole seconds since the epoch, rounded down (never traps: the range fits any integer type
    /// of 64 bits).
    public var seconds: Int64 { Int64(secondsSince1970.rounded(.down)) }

    /// The value as JSON would carry it: an integer when it is whole.
    public var description: String { Self.text(secondsSince1970) }

    /// Whether `lhs` is the earlier instant.
    public static func < (lhs: NumericDate, rhs: NumericDate) -> Bool { lhs.secondsSince1970 < rhs.secondsSince1970 }

    /// A number as a message shows it: whole numbers in the 64-bit range without a fraction,
    /// anything else as Swift prints a `Double` (`1e+30`, `-1e+300`, `1.5`).
    static func text(_ value: Double) -> String {
        if value.isFinite, value == value.rounded(.towardZero), let whole = Int64(exactly: value) {
            return String(whole)
        }
        return String(describing: value)
    }
}

/// Why a claim is not an acceptable ``NumericDate``. The description names the claim, the value
/// and the rule, e.g. "exp 1e+30 is beyond year 9999 …".
public struct NumericDateError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The rule of ``NumericDate`` a value broke.
    public enum Rule: String, Sendable {
        /// Not a JSON number (a string such as `"NaN"`, a boolean, an object, a number no
        /// `Double` can hold).
        case notANumber
        /// Infinite or NaN.
        case notFinite
        /// Below ``NumericDate/earliest``.
        case beforeEpoch
        /// Above ``NumericDate/latest``.
        case afterYear9999
    }

    /// The claim's name (`exp`, `iat`, `auth_time`, …).
    public let claim: String
    /// Which rule the value broke.
    public let rule: Rule
    /// The value as received, shortened to 40 characters.
    public let value: String

    /// An error for `claim`; `value` is kept as received, shortened to 40 characters.
    public init(claim: String, rule: Rule, value: String) {
        self.claim = claim
        self.rule = rule
        self.value = value.count > 40 ? String(value.prefix(40)) + "…" : value
    }

    /// The message naming the claim, the value and the rule, citing RFC 7519 §2 where it applies.
    public var description: String {
        switch rule {
        case .notANumber:
            "\(claim) \(value) is not a NumericDate (RFC 7519 section 2: a JSON number of seconds since 1970)"
        case .notFinite:
            "\(claim) \(value) is not a finite number of seconds (RFC 7519 section 2)"
        case .beforeEpoch:
            "\(claim) \(value) is before 1970 (the earliest NumericDate accepted is 0)"
        case .afterYear9999:
            "\(claim) \(value) is beyond year 9999 (the latest NumericDate accepted is \(NumericDate.text(NumericDate.latest)))"
        }
    }
}

extension NumericDate: Codable {
    /// Decodes a JSON number; the claim's name in an error is the last coding key.
    public init(from decoder: any Decoder) throws {
        let claim = decoder.codingPath.last?.stringValue ?? "NumericDate"
        let container = try decoder.singleValueContainer()
        guard let seconds = try? container.decode(Double.self) else {
            let shown = (try? container.decode(String.self)).map { "\"\($0)\"" } ?? "(not a number)"
            throw NumericDateError(claim: claim, rule: .notANumber, value: shown)
        }
        try self.init(validating: seconds, claim: claim)
    }

    /// Encodes an integer when the value is whole, the fraction otherwise.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if secondsSince1970 == secondsSince1970.rounded(.down) {
            try container.encode(seconds)
        } else {
            try container.encode(secondsSince1970)
        }
    }
}

extension KeyedDecodingContainer {
    /// The NumericDate at `key`, or why it is not one; `nil` when the claim is absent or
    /// `null`. It does not throw, so that a payload decoder (one JWTKit runs before checking the
    /// signature) can read the whole token and let the validator name the failed rule.
    public func numericDateIfPresent(forKey key: Key) -> Result<NumericDate, NumericDateError>? {
        guard contains(key), (try? decodeNil(forKey: key)) != true else { return nil }
        if let seconds = try? decode(Double.self, forKey: key) {
            return Result { () throws(NumericDateError) in try NumericDate(validating: seconds, claim: key.stringValue) }
        }
        let shown = (try? decode(String.self, forKey: key)).map { "\"\($0)\"" } ?? "(not a number)"
        return .failure(NumericDateError(claim: key.stringValue, rule: .notANumber, value: shown))
    }
}

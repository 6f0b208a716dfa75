import Foundation

/// The rules a device PIN must follow for one client (SPEC §1.6, docs/pin-devices.md). The server
/// never sees a PIN: it publishes the policy (`GET /api/pin/policy`) and the SDK checks a new PIN
/// against it before registering; the server enforces what it can see, ``maximumAttempts``.
///
/// Defaults (the bank SDK's): at least 5 digits, no run of ascending or descending digits over
/// the whole PIN (`12345`, `98765`), no digit more than twice, not one of ``commonPINs``, and 3
/// wrong attempts before the registration is revoked.
public struct PINPolicy: Codable, Sendable, Equatable {
    /// The fewest digits. Default 5. A PIN has at most ``maximumLength`` digits.
    public var minimumLength: Int
    /// Whether a PIN whose digits all ascend or all descend by one is refused. Default `true`.
    public var forbidsSequences: Bool
    /// How often one digit may appear. Default 2.
    public var maximumRepeatedDigits: Int
    /// PINs refused outright (the operator's list, plus ``commonPINs``).
    public var blacklist: [String]
    /// Wrong PINs in a row before the server revokes the registration. Default 3.
    public var maximumAttempts: Int

    /// The longest PIN accepted.
    public static let maximumLength = 12
    /// The values ``minimumLength`` may take.
    public static let allowedMinimumLengths = 4...maximumLength
    /// The values ``maximumAttempts`` may take.
    public static let allowedAttemptLimits = 1...10

    /// Frequent PINs that pass the other rules (from published PIN-frequency studies).
    public static let commonPINs = ["13579", "24680", "02468", "97531", "12321", "10203", "14725", "25836", "36925"]

    /// A policy; the defaults are the bank SDK's: 5 digits, no sequences, no digit more than twice,
    /// `commonPINs` refused, 3 wrong attempts.
    public init(
        minimumLength: Int = 5, forbidsSequences: Bool = true, maximumRepeatedDigits: Int = 2,
        blacklist: [String] = PINPolicy.commonPINs, maximumAttempts: Int = 3
    ) {
        self.minimumLength = minimumLength
        self.forbidsSequences = forbidsSequences
        self.maximumRepeatedDigits = maximumRepeatedDigits
        self.blacklist = blacklist
        self.maximumAttempts = maximumAttempts
    }

    /// The first rule `pin` breaks, or `nil`.
    public func violation(_ pin: String) -> PINViolation? {
        let digits = pin.unicodeScalars.compactMap { scalar -> Int? in
            ("0"..."9").contains(scalar) ? Int(scalar.value) - 48 : nil
        }
        guard digits.count == pin.unicodeScalars.count, digits.count <= Self.maximumLength else { return .notNumeric }
        guard digits.count >= minimumLength else { return .tooShort(minimum: minimumLength) }
        if forbidsSequences, digits.count >= 3 {
            let steps = Set(zip(digits, digits.dropFirst()).map { $1 - $0 })
            if steps == [1] || steps == [-1] { return .sequence }
        }
        let most = Dictionary(grouping: digits, by: { $0 }).values.map(\.count).max() ?? 0
        if most > maximumRepeatedDigits { return .tooManySimilarDigits(maximum: maximumRepeatedDigits) }
        if blacklist.contains(pin) { return .blacklisted }
        return nil
    }

    enum CodingKeys: String, CodingKey {
        case minimumLength = "minimum_length"
        case forbidsSequences = "forbids_sequences"
        case maximumRepeatedDigits = "maximum_repeated_digits"
        case blacklist
        case maximumAttempts = "maximum_attempts"
    }
}

/// Why a new PIN is refused by a ``PINPolicy``.
public enum PINViolation: Sendable, Equatable {
    /// Not only the digits 0–9, or more than ``PINPolicy/maximumLength`` of them.
    case notNumeric
    /// Fewer digits than the policy's `minimum`.
    case tooShort(minimum: Int)
    /// All digits ascend or all descend by one (`12345`, `98765`).
    case sequence
    /// One digit appears more than `maximum` times.
    case tooManySimilarDigits(maximum: Int)
    /// On the policy's blacklist.
    case blacklisted
}

import Foundation
import SesameProtocol

extension PINPolicy {
    /// This policy with `update` applied (``AdminPINPolicyUpdate``, issue #47), each value checked
    /// as `sesame client add --pin-…` checks it; a value out of range names its field.
    package func applying(_ update: AdminPINPolicyUpdate) throws -> PINPolicy {
        var policy = update.restoreDefaults == true ? PINPolicy() : self
        if let length = update.minimumLength {
            guard Self.allowedMinimumLengths.contains(length) else {
                throw Self.invalid("minimum_length", "is between \(Self.allowedMinimumLengths.lowerBound) and \(Self.maximumLength)")
            }
            policy.minimumLength = length
        }
        if let attempts = update.maximumAttempts {
            guard Self.allowedAttemptLimits.contains(attempts) else {
                throw Self.invalid("maximum_attempts", "is between 1 and \(Self.allowedAttemptLimits.upperBound)")
            }
            policy.maximumAttempts = attempts
        }
        if let repeated = update.maximumRepeatedDigits {
            guard (1...Self.maximumLength).contains(repeated) else {
                throw Self.invalid("maximum_repeated_digits", "is between 1 and \(Self.maximumLength)")
            }
            policy.maximumRepeatedDigits = repeated
        }
        if let sequences = update.forbidsSequences { policy.forbidsSequences = sequences }
        if let entries = update.blacklist {
            guard entries.count <= 10_000 else { throw Self.invalid("blacklist", "holds at most 10000 PINs") }
            if entries.contains(where: { $0.isEmpty || $0.count > Self.maximumLength || !$0.allSatisfy { ("0"..."9").contains($0) } }) {
                throw Self.invalid("blacklist", "holds PINs of 1 to \(Self.maximumLength) digits only")
            }
            policy.blacklist = Array(Set(Self.commonPINs + entries)).sorted()
        }
        return policy
    }

    private static func invalid(_ member: String, _ reason: String) -> ProviderFailure {
        ProviderFailure.invalidClientSetting(field: "pin_policy." + member, reason: reason)
    }
}
